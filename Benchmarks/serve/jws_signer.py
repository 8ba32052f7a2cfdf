"""The serve benchmarks' JWS signer: ES256 over a payload, with the x5c chain of a `receiptkit mint jws-ca` folder,
as Apple signs transactions, renewal information and notifications."""
import base64

import jwt
from cryptography.hazmat.primitives import serialization


def signer(ca):
    """A function signing a payload (a dict) with the leaf key of the CA folder `ca`."""
    key = serialization.load_pem_private_key(open(f"{ca}/leaf.key.pem", "rb").read(), password=None)
    chain = [base64.b64encode(open(f"{ca}/{name}.cer", "rb").read()).decode() for name in ("leaf", "intermediate", "root")]
    return lambda payload: jwt.encode(payload, key, algorithm="ES256", headers={"x5c": chain, "typ": None})
