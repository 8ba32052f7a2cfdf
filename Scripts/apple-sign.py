#!/usr/bin/env python3
"""Apple's library as the oracle of the signatures an app server makes (issue 48): verifies ReceiptKit's JWS with
PyJWT (which Apple's app-store-server-library depends on) and signs the same request with Apple's own
jws_signature_creator, so that a test can compare the two.

    Scripts/apple-sign.py < SPEC.json

SPEC: {"key": PEM of the .p8, "keyId": …, "issuerId": …, "bundleId": …, "items": [{"kind": "promotional-offer",
"token": …, "productId": …, "offerIdentifier": …, "transactionId": … or null} | {"kind":
"introductory-offer-eligibility", "token": …, "productId": …, "allowIntroductoryOffer": …, "transactionId": …} |
{"kind": "advanced-commerce-api", "token": …}]}. Prints one JSON line per item: {"kind": …, "ours": {"header": …,
"claims": …}, "apple": {"header": …, "claims": …} (absent for advanced-commerce-api)} or {"kind": …, "error": "…"}
when PyJWT refuses ours (signature, algorithm, audience). Exits 0 once every item has a line, 69 when the library is
not installed.
"""
import json
import sys

try:
    import jwt
    from cryptography.hazmat.primitives import serialization
    from appstoreserverlibrary import jws_signature_creator as creators
except ImportError:
    print("apple-sign.py: app-store-server-library is not installed (pip install app-store-server-library)",
          file=sys.stderr)
    sys.exit(69)


def decoded(token, public_key, audience):
    claims = jwt.decode(token, public_key, algorithms=["ES256"], audience=audience,
                        options={"require": ["iat", "aud", "iss"]})
    return {"header": jwt.get_unverified_header(token), "claims": claims}


def main():
    spec = json.load(sys.stdin)
    key = spec["key"].encode()
    public_key = serialization.load_pem_private_key(key, password=None).public_key()
    common = (key, spec["keyId"], spec["issuerId"], spec["bundleId"])
    for item in spec["items"]:
        kind = item["kind"]
        try:
            line = {"kind": kind, "ours": decoded(item["token"], public_key, kind)}
        except jwt.PyJWTError as error:
            print(json.dumps({"kind": kind, "error": f"{type(error).__name__}: {error}"}))
            continue
        apple = None
        if kind == "promotional-offer":
            apple = creators.PromotionalOfferV2SignatureCreator(*common).create_signature(
                item["productId"], item["offerIdentifier"], item.get("transactionId"))
        elif kind == "introductory-offer-eligibility":
            apple = creators.IntroductoryOfferEligibilitySignatureCreator(*common).create_signature(
                item["productId"], item["allowIntroductoryOffer"], item["transactionId"])
        if apple is not None:
            line["apple"] = decoded(apple, public_key, kind)
        print(json.dumps(line, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
