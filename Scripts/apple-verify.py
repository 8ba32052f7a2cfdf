#!/usr/bin/env python3
"""Apple's own verifier as the oracle: runs app-store-server-library's SignedDataVerifier (PyPI) over signed data.

    Scripts/apple-verify.py ROOT.cer ENVIRONMENT BUNDLE_ID KIND=FILE...

ENVIRONMENT is Production or Sandbox; KIND is transaction, renewal-info, app-transaction or notification; each FILE
holds one compact JWS (or {"signedPayload": …} for a notification). Prints one JSON line per input:
{"input": FILE, "kind": KIND, "ok": true} or {"input": FILE, "kind": KIND, "ok": false, "status": "…"}. Exits 0
once every input has a line, 69 when the library is not installed (pip install app-store-server-library).
"""
import json
import sys

try:
    from appstoreserverlibrary.models.Environment import Environment
    from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException
except ImportError:
    print("apple-verify.py: app-store-server-library is not installed (pip install app-store-server-library)",
          file=sys.stderr)
    sys.exit(69)


def main(argv):
    if len(argv) < 5:
        print(__doc__, file=sys.stderr)
        return 64
    root, environment, bundle = open(argv[1], "rb").read(), Environment(argv[2]), argv[3]
    # Online checks (OCSP) off: the test authorities name no responder. app_apple_id is only required in production.
    verifier = SignedDataVerifier([root], False, environment, bundle, 1 if environment == Environment.PRODUCTION else None)
    decode = {
        "transaction": verifier.verify_and_decode_signed_transaction,
        "renewal-info": verifier.verify_and_decode_renewal_info,
        "app-transaction": verifier.verify_and_decode_app_transaction,
        "notification": verifier.verify_and_decode_notification,
    }
    for item in argv[4:]:
        kind, _, path = item.partition("=")
        text = open(path).read().strip()
        if kind == "notification" and text.startswith("{"):
            text = json.loads(text)["signedPayload"]
        line = {"input": path, "kind": kind}
        try:
            decode[kind](text)
            line["ok"] = True
        except VerificationException as error:
            line.update(ok=False, status=error.status.name)
        print(json.dumps(line, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
