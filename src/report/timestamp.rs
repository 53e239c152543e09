//! RFC 3161 trusted timestamps: a digest sent to a time-stamping authority (TSA), its signed
//! answer kept, and that answer checked later.
//!
//! [`request`] sends `TimeStampReq` (SHA-256 message imprint, a nonce, the TSA's certificate
//! asked for) over HTTP and keeps the whole `TimeStampResp` DER, the form `openssl ts
//! -verify -in` reads. [`check`] reads a response back: the status is granted, the token's
//! `TSTInfo` names the digest expected, the signed attributes carry the digest of the
//! `TSTInfo`, and the signature over them verifies with the public key of a certificate in
//! the token (RSA PKCS#1 v1.5 or ECDSA, through ring). What it does not check: whether that
//! certificate chains to an authority the reader trusts (there is no trust store here;
//! `openssl ts -verify -CAfile` does that) and revocation.
//!
//! The DER reader is the minimum these structures need: definite lengths, tags below 31.

use sha2::Digest;

/// A DER element: its tag byte, its whole encoding and its content.
#[derive(Clone, Copy, Debug)]
struct Der<'a> {
    tag: u8,
    whole: &'a [u8],
    content: &'a [u8],
}

/// The first element of `input` and what follows it.
fn der(input: &[u8]) -> Result<(Der<'_>, &[u8]), String> {
    let bad = || "malformed DER".to_string();
    let (&tag, rest) = input.split_first().ok_or_else(bad)?;
    let (&first, rest) = rest.split_first().ok_or_else(bad)?;
    let (len, rest) = if first < 0x80 {
        (first as usize, rest)
    } else {
        let n = (first & 0x7f) as usize;
        if n == 0 || n > 4 || rest.len() < n {
            return Err(bad());
        }
        (rest[..n].iter().fold(0usize, |a, &b| a << 8 | b as usize), &rest[n..])
    };
    let header = input.len() - rest.len();
    if rest.len() < len {
        return Err(bad());
    }
    Ok((Der { tag, whole: &input[..header + len], content: &rest[..len] }, &rest[len..]))
}

/// The first element inside a constructed element's content.
fn first(content: &[u8]) -> Result<Der<'_>, String> {
    Ok(der(content)?.0)
}

/// The elements inside a constructed element's content.
fn children(content: &[u8]) -> Result<Vec<Der<'_>>, String> {
    let mut out = Vec::new();
    let mut rest = content;
    while !rest.is_empty() {
        let (d, r) = der(rest)?;
        out.push(d);
        rest = r;
    }
    Ok(out)
}

fn encode(tag: u8, content: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    let len = content.len();
    if len < 0x80 {
        out.push(len as u8);
    } else {
        let bytes: Vec<u8> = len.to_be_bytes().into_iter().skip_while(|&b| b == 0).collect();
        out.push(0x80 | bytes.len() as u8);
        out.extend(bytes);
    }
    out.extend_from_slice(content);
    out
}

const OID_SHA256: &[u8] = &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01];
const OID_SHA384: &[u8] = &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02];
const OID_SHA512: &[u8] = &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03];
const OID_MESSAGE_DIGEST: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x09, 0x04];
const OID_RSA: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01];
const OID_SHA256_RSA: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0b];
const OID_SHA384_RSA: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0c];
const OID_SHA512_RSA: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0d];
const OID_ECDSA_SHA256: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02];
const OID_ECDSA_SHA384: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x03];
const OID_COMMON_NAME: &[u8] = &[0x55, 0x04, 0x03];

/// The DER of a `TimeStampReq` for a SHA-256 digest.
pub fn request_der(sha256: &[u8; 32], nonce: u64) -> Vec<u8> {
    let algorithm = encode(0x30, &[encode(0x06, OID_SHA256), vec![0x05, 0x00]].concat());
    let imprint = encode(0x30, &[algorithm, encode(0x04, sha256)].concat());
    // A positive INTEGER in the fewest bytes, a zero first when the top bit would read as a sign.
    let mut digits: Vec<u8> = nonce.to_be_bytes().into_iter().skip_while(|&b| b == 0).collect();
    if digits.first().is_none_or(|&b| b & 0x80 != 0) {
        digits.insert(0, 0);
    }
    let nonce = encode(0x02, &digits);
    encode(0x30, &[encode(0x02, &[1]), imprint, nonce, vec![0x01, 0x01, 0xff]].concat())
}

/// Asks the TSA at `url` to timestamp `sha256`; returns the `TimeStampResp` DER after
/// checking it answers this request (granted, this digest, this nonce, a valid signature).
pub fn request(url: &str, sha256: &[u8; 32], timeout: std::time::Duration) -> Result<Vec<u8>, String> {
    let nonce = fastrand::u64(..);
    let agent: ureq::Agent =
        ureq::Agent::config_builder().timeout_global(Some(timeout)).http_status_as_error(false).build().into();
    let mut response = agent
        .post(url)
        .header("Content-Type", "application/timestamp-query")
        .send(&request_der(sha256, nonce)[..])
        .map_err(|e| format!("the time-stamping authority {url} did not answer: {e}"))?;
    let status = response.status().as_u16();
    let body = response.body_mut().with_config().limit(1 << 20).read_to_vec().map_err(|e| format!("{url}: {e}"))?;
    if status != 200 {
        return Err(format!("the time-stamping authority {url} answered HTTP {status}"));
    }
    let stamp = check(&body, sha256).map_err(|e| format!("the answer of {url}: {e}"))?;
    if stamp.nonce != Some(nonce) {
        return Err(format!("the answer of {url} is not for this request (its nonce differs)"));
    }
    Ok(body)
}

/// What a valid token says.
#[derive(Clone, Debug, PartialEq)]
pub struct Stamp {
    /// `genTime` as written (`20261123214500Z`).
    pub time: String,
    /// Unix seconds of `genTime`, when it parses.
    pub unix: Option<i64>,
    /// The signing certificate's common name (or "unnamed").
    pub signer: String,
    pub nonce: Option<u64>,
}

fn digest_by_oid(oid: &[u8], data: &[u8]) -> Option<Vec<u8>> {
    Some(match oid {
        OID_SHA256 => sha2::Sha256::digest(data).to_vec(),
        OID_SHA384 => sha2::Sha384::digest(data).to_vec(),
        OID_SHA512 => sha2::Sha512::digest(data).to_vec(),
        _ => return None,
    })
}

/// Checks a `TimeStampResp` against the digest it should stamp; says what is wrong.
pub fn check(response: &[u8], sha256: &[u8; 32]) -> Result<Stamp, String> {
    let (resp, _) = der(response)?;
    let parts = children(resp.content)?;
    let status_info = children(parts.first().ok_or("empty response")?.content)?;
    let status = status_info.first().map(|s| s.content).unwrap_or(&[]);
    if status != [0] && status != [1] {
        return Err(format!("the authority refused the request (PKIStatus {status:?})"));
    }
    let token = parts.get(1).ok_or("granted but no token")?;
    // ContentInfo { signedData OID, [0] SignedData }
    let content_info = children(token.content)?;
    let signed = children(first(content_info.get(1).ok_or("no signed data")?.content)?.content)?;
    // SignedData { version, digestAlgorithms, encapContentInfo, [0] certificates, [1] crls, signerInfos }
    let encap = children(signed.get(2).ok_or("no content")?.content)?;
    let tst_der = children(encap.get(1).ok_or("no TSTInfo")?.content)?.first().ok_or("no TSTInfo")?.content;
    let (tst, _) = der(tst_der)?;
    let tst = children(tst.content)?;
    // TSTInfo { version, policy, messageImprint, serialNumber, genTime, ... nonce ... }
    let imprint = children(tst.get(2).ok_or("no message imprint")?.content)?;
    let imprint_algorithm = first(imprint.first().ok_or("no imprint")?.content)?.content;
    if imprint_algorithm != OID_SHA256 || imprint.get(1).map(|d| d.content) != Some(&sha256[..]) {
        return Err("the token stamps another digest than this file's".into());
    }
    let time_der = tst.get(4).ok_or("no time")?;
    let time = String::from_utf8_lossy(time_der.content).into_owned();
    let nonce = tst
        .get(5..)
        .unwrap_or(&[])
        .iter()
        .find(|d| d.tag == 0x02)
        .map(|d| d.content.iter().rev().take(8).rev().fold(0u64, |a, &b| a << 8 | u64::from(b)));
    let certificates: Vec<Der> =
        signed.iter().find(|d| d.tag == 0xa0).map(|c| children(c.content)).transpose()?.unwrap_or_default();
    let signer_info = children(signed.last().ok_or("no signer")?.content)?;
    let signer_info = children(signer_info.first().ok_or("no signer")?.content)?;
    // SignerInfo { version, sid, digestAlgorithm, [0] signedAttrs, signatureAlgorithm, signature }
    let digest_algorithm = first(signer_info.get(2).ok_or("no digest algorithm")?.content)?.content;
    let attrs = signer_info.get(3).filter(|d| d.tag == 0xa0).ok_or("no signed attributes")?;
    let expected = digest_by_oid(digest_algorithm, tst_der).ok_or("unsupported digest algorithm")?;
    let message_digest = children(attrs.content)?
        .into_iter()
        .find_map(|a| {
            let a = children(a.content).ok()?;
            (a.first()?.content == OID_MESSAGE_DIGEST)
                .then(|| children(a.get(1)?.content).ok()?.first().map(|d| d.content))?
        })
        .ok_or("no message digest attribute")?;
    if message_digest != expected.as_slice() {
        return Err("the signed attributes do not match the token's content (changed)".into());
    }
    let signature_algorithm = first(signer_info.get(4).ok_or("no signature algorithm")?.content)?.content;
    let signature = signer_info.get(5).ok_or("no signature")?.content;
    // The signature is over the attributes as a SET (tag 0x31), not as [0].
    let signed_bytes = [&[0x31][..], &attrs.whole[1..]].concat();
    for certificate in &certificates {
        let Ok((key_algorithm, key)) = public_key(certificate.content) else { continue };
        let verify_with: &'static dyn ring::signature::VerificationAlgorithm =
            match (signature_algorithm, digest_algorithm) {
                (OID_SHA256_RSA, _) | (OID_RSA, OID_SHA256) => &ring::signature::RSA_PKCS1_2048_8192_SHA256,
                (OID_SHA384_RSA, _) | (OID_RSA, OID_SHA384) => &ring::signature::RSA_PKCS1_2048_8192_SHA384,
                (OID_SHA512_RSA, _) | (OID_RSA, OID_SHA512) => &ring::signature::RSA_PKCS1_2048_8192_SHA512,
                (OID_ECDSA_SHA256, _) => &ring::signature::ECDSA_P256_SHA256_ASN1,
                (OID_ECDSA_SHA384, _) => &ring::signature::ECDSA_P384_SHA384_ASN1,
                _ => return Err("unsupported signature algorithm".into()),
            };
        let is_rsa = key_algorithm == OID_RSA;
        let rsa_signature = matches!(signature_algorithm, OID_RSA | OID_SHA256_RSA | OID_SHA384_RSA | OID_SHA512_RSA);
        if is_rsa != rsa_signature {
            continue;
        }
        if ring::signature::UnparsedPublicKey::new(verify_with, key).verify(&signed_bytes, signature).is_ok() {
            let unix = parse_generalized_time(&time);
            return Ok(Stamp { time, unix, signer: common_name(certificate.content), nonce });
        }
    }
    Err("the signature does not verify with any certificate in the token".into())
}

/// A certificate's public key: (algorithm OID, the key bits).
fn public_key(certificate: &[u8]) -> Result<(&[u8], &[u8]), String> {
    let tbs = children(children(certificate)?.first().ok_or("empty certificate")?.content)?;
    // TBSCertificate { [0] version, serial, signature, issuer, validity, subject, spki, ... }
    let skip = usize::from(tbs.first().is_some_and(|d| d.tag == 0xa0));
    let spki = children(tbs.get(skip + 5).ok_or("no public key")?.content)?;
    let algorithm = first(spki.first().ok_or("no public key")?.content)?.content;
    let bits = spki.get(1).ok_or("no public key")?.content;
    // A BIT STRING starts with its count of unused bits (0).
    Ok((algorithm, bits.get(1..).ok_or("empty key")?))
}

/// The common name of a certificate's subject.
fn common_name(certificate: &[u8]) -> String {
    let name = (|| -> Result<Option<String>, String> {
        let tbs = children(children(certificate)?.first().ok_or("")?.content)?;
        let skip = usize::from(tbs.first().is_some_and(|d| d.tag == 0xa0));
        for rdn in children(tbs.get(skip + 4).ok_or("")?.content)? {
            for attribute in children(rdn.content)? {
                let pair = children(attribute.content)?;
                if pair.first().map(|d| d.content) == Some(OID_COMMON_NAME) {
                    return Ok(pair.get(1).map(|v| String::from_utf8_lossy(v.content).into_owned()));
                }
            }
        }
        Ok(None)
    })();
    name.ok().flatten().unwrap_or_else(|| "unnamed".into())
}

/// `YYYYMMDDhhmmss[.fff]Z` to unix seconds.
fn parse_generalized_time(t: &str) -> Option<i64> {
    let digits = |r: std::ops::Range<usize>| t.get(r)?.parse::<i64>().ok();
    let day = crate::engine::time::parse_date(&format!("{}-{}-{}", t.get(0..4)?, t.get(4..6)?, t.get(6..8)?))?;
    Some(day + digits(8..10)? * 3600 + digits(10..12)? * 60 + digits(12..14)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_der_that_reads_back() {
        let req = request_der(&[7; 32], u64::MAX);
        let (top, rest) = der(&req).unwrap();
        assert!(rest.is_empty());
        let parts = children(top.content).unwrap();
        assert_eq!(parts.len(), 4);
        assert_eq!(parts[0].content, [1]);
        assert_eq!(children(parts[1].content).unwrap()[1].content, [7; 32]);
        assert_eq!(parts[2].content, [0, 255, 255, 255, 255, 255, 255, 255, 255]);
        let small = request_der(&[7; 32], 0x1234);
        assert_eq!(children(der(&small).unwrap().0.content).unwrap()[2].content, [0x12, 0x34], "minimal DER");
        assert!(der(&req[..req.len() - 1]).is_err(), "a cut element is refused");
    }

    #[test]
    fn generalized_time_reads() {
        assert_eq!(parse_generalized_time("19700102000001Z"), Some(86_401));
        assert_eq!(
            parse_generalized_time("20261123214500.5Z"),
            crate::engine::time::parse_date("2026-11-23").map(|d| d + 21 * 3600 + 45 * 60)
        );
    }
}
