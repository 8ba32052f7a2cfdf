#!/usr/bin/env python3
"""Apple's own client as the oracle: runs app-store-server-library's AppStoreServerAPIClient (PyPI) against a server
that answers like Apple's App Store Server API (receiptkit serve's mirror, the simulator), its base URL pointed there, and verifies
every signed value it gets with the library's SignedDataVerifier.

    Scripts/apple-client.py BASE_URL KEY.p8 KEY_ID ISSUER_ID BUNDLE_ID ENVIRONMENT ROOT.cer CALL=ARGUMENT...

ENVIRONMENT is Production or Sandbox (the base URL already names it: /sandbox for Sandbox); CALL is one of
transaction-info, statuses (Get All Subscription Statuses), history (Get Transaction History v2, every page, in the
library's default order), refunds (Get Refund History v2, every page) and app-transaction (Get App Transaction Info:
"appTransactionId" and "bundleId" of the AppTransaction it verified, no transaction ids), ARGUMENT a transaction id.
In Production the verifier expects app Apple ID 1. Prints one JSON
line per call: {"call": CALL, "argument": ARGUMENT, "ok": true, "transactionIds": [...]} with the ids of the signed
transactions it verified, in the order received (statuses adds "statuses": {originalTransactionId: status} and the
original transaction ids of the renewal info it verified; the histories add "pages"), or {"call": …, "ok": false,
"httpStatus": …, "apiError": …} for an API error, or {"call": …, "ok": false, "verification": STATUS} for a signed value
Apple's verifier refused. Exits 0 once every call has a line, 69 when the library is not installed.
"""
import json
import sys

try:
    from appstoreserverlibrary.api_client import APIException, AppStoreServerAPIClient, GetTransactionHistoryVersion
    from appstoreserverlibrary.models.TransactionHistoryRequest import TransactionHistoryRequest
    from appstoreserverlibrary.models.Environment import Environment
    from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException
except ImportError:
    print("apple-client.py: app-store-server-library is not installed (pip install app-store-server-library)",
          file=sys.stderr)
    sys.exit(69)


def main(argv):
    if len(argv) < 9:
        print(__doc__, file=sys.stderr)
        return 64
    base_url, key_file, key_id, issuer_id, bundle, environment, root_file = argv[1:8]
    environment = Environment(environment)
    client = AppStoreServerAPIClient(open(key_file, "rb").read(), key_id, issuer_id, bundle, environment)
    # The one change an application makes to use the mirror: the base URL.
    client._base_url = base_url.rstrip("/")
    verifier = SignedDataVerifier([open(root_file, "rb").read()], False, environment, bundle,
                                  1 if environment == Environment.PRODUCTION else None)
    for item in argv[8:]:
        call, _, argument = item.partition("=")
        line = {"call": call, "argument": argument}
        try:
            if call == "transaction-info":
                signed = [client.get_transaction_info(argument).signedTransactionInfo]
            elif call == "statuses":
                response = client.get_all_subscription_statuses(argument)
                items = [item for group in response.data or [] for item in group.lastTransactions or []]
                signed = [item.signedTransactionInfo for item in items]
                line["statuses"] = {item.originalTransactionId: item.rawStatus for item in items}
                line["renewalInfo"] = [verifier.verify_and_decode_renewal_info(item.signedRenewalInfo).originalTransactionId
                                       for item in items]
            elif call == "app-transaction":
                response = client.get_app_transaction_info(argument)
                decoded = verifier.verify_and_decode_app_transaction(response.signedAppTransactionInfo)
                line["appTransactionId"] = decoded.appTransactionId
                line["bundleId"] = decoded.bundleId
                signed = []
            elif call in ("history", "refunds"):
                signed, revision, pages = [], None, 0
                while pages < 100:
                    if call == "history":
                        response = client.get_transaction_history(argument, revision, TransactionHistoryRequest(),
                                                                   GetTransactionHistoryVersion.V2)
                    else:
                        response = client.get_refund_history(argument, revision)
                    signed += response.signedTransactions or []
                    revision, pages = response.revision, pages + 1
                    if not response.hasMore:
                        break
                line["pages"] = pages
            else:
                print(f"apple-client.py: unknown call {call}", file=sys.stderr)
                return 64
            line["transactionIds"] = [verifier.verify_and_decode_signed_transaction(jws).transactionId for jws in signed]
            line["ok"] = True
        except APIException as error:
            line.update(ok=False, httpStatus=error.http_status_code, apiError=error.raw_api_error)
        except VerificationException as error:
            line.update(ok=False, verification=error.status.name)
        print(json.dumps(line), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
