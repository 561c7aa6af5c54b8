//! TLS for the mail connections, in one place for IMAP (rustls) and SMTP
//! (lettre over rustls): the public web roots, plus the certificates of an
//! extra CA file (PEM) that the campaign's `[mail] ca_file` names, for a
//! GM's own mail server with a private or self-signed certificate. Also
//! the wording of certificate failures, so that `realmgm doctor` and the
//! daemon's errors say which setting to change.

use std::path::Path;
use std::sync::Arc;

use lettre::transport::smtp::client::{Certificate, TlsParameters};
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use rustls::{ClientConfig, RootCertStore};

/// Why TLS for the mail connections cannot be set up, naming the setting to
/// change.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TlsError {
    #[error("cannot read the CA file {file} named by mail.ca_file: {reason}")]
    Unreadable { file: String, reason: String },
    #[error(
        "the CA file {file} named by mail.ca_file holds no PEM certificate (-----BEGIN \
         CERTIFICATE-----)"
    )]
    NoCertificate { file: String },
    #[error("a certificate in {file} (mail.ca_file) is not a usable CA certificate: {reason}")]
    Unusable { file: String, reason: String },
    #[error("the TLS library refuses its own protocol versions: {0}")]
    Protocols(String),
    #[error("cannot set up TLS for SMTP host '{host}': {reason}")]
    SmtpHost { host: String, reason: String },
}

/// The certificates of a PEM file.
///
/// # Errors
/// The file cannot be read, is not PEM or holds no certificate; the message
/// names the file.
pub fn read_ca_file(path: &Path) -> Result<Vec<CertificateDer<'static>>, TlsError> {
    let certificates = CertificateDer::pem_file_iter(path)
        .and_then(|iter| iter.collect::<Result<Vec<_>, _>>())
        .map_err(|e| TlsError::Unreadable {
            file: path.display().to_string(),
            reason: e.to_string(),
        })?;
    if certificates.is_empty() {
        return Err(TlsError::NoCertificate {
            file: path.display().to_string(),
        });
    }
    Ok(certificates)
}

/// The rustls client configuration: web roots plus `ca_file`'s certificates.
///
/// # Errors
/// The CA file is unusable.
pub fn client_config(ca_file: Option<&Path>) -> Result<Arc<ClientConfig>, TlsError> {
    let mut roots = RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    if let Some(path) = ca_file {
        for certificate in read_ca_file(path)? {
            roots.add(certificate).map_err(|e| TlsError::Unusable {
                file: path.display().to_string(),
                reason: e.to_string(),
            })?;
        }
    }
    let config =
        ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
            .with_safe_default_protocol_versions()
            .map_err(|e| TlsError::Protocols(e.to_string()))?
            .with_root_certificates(roots)
            .with_no_client_auth();
    Ok(Arc::new(config))
}

/// lettre's TLS parameters for `host`: web roots plus `ca_file`'s certificates.
///
/// # Errors
/// The CA file is unusable, or lettre refuses the host name.
pub fn smtp_parameters(host: &str, ca_file: Option<&Path>) -> Result<TlsParameters, TlsError> {
    let mut builder = TlsParameters::builder(host.to_string());
    if let Some(path) = ca_file {
        for certificate in read_ca_file(path)? {
            let certificate =
                Certificate::from_der(certificate.to_vec()).map_err(|e| TlsError::Unusable {
                    file: path.display().to_string(),
                    reason: e.to_string(),
                })?;
            builder = builder.add_root_certificate(certificate);
        }
    }
    builder.build_rustls().map_err(|e| TlsError::SmtpHost {
        host: host.to_string(),
        reason: e.to_string(),
    })
}

/// What to do about a TLS failure, read from its message; `None` when the
/// message is not about TLS.
pub fn advice(message: &str) -> Option<&'static str> {
    let lower = message.to_lowercase();
    let contains = |needle: &str| lower.contains(&needle.to_lowercase());
    if contains("UnknownIssuer") || contains("unknown issuer") || contains("BadSignature") {
        Some(
            "the server's certificate is not signed by an authority realmgm trusts; if the \
             server uses its own CA or a self-signed certificate, name that CA certificate (PEM) \
             in the campaign's [mail] table: ca_file = \"/path/to/ca.pem\"",
        )
    } else if contains("NotValidForName") || contains("not valid for name") {
        Some(
            "the server's certificate does not name this host; set host to a name the \
             certificate carries (often the server's DNS name rather than its IP address)",
        )
    } else if contains("Expired") || contains("NotValidYet") {
        Some("the server's certificate is outside its validity dates; the server must renew it")
    } else if contains("InvalidContentType") || contains("corrupt message") {
        Some(
            "the port did not answer in TLS; use security = \"starttls\" on a plain port (143, \
             587, 25) and security = \"tls\" on a TLS port (993, 465)",
        )
    } else if contains("certificate") || contains("tls") || contains("handshake") {
        Some("a TLS failure; check host, port, security and mail.ca_file")
    } else {
        None
    }
}

/// `message` followed by the advice for it, when there is some.
pub fn explain(message: &str) -> String {
    match advice(message) {
        Some(advice) => format!("{message} ({advice})"),
        None => message.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn certificate_failures_name_the_setting_to_add() {
        let text = "invalid peer certificate: UnknownIssuer";
        assert!(explain(text).contains("ca_file = "), "{}", explain(text));
        assert!(advice("invalid peer certificate: NotValidForName").is_some());
        assert!(
            advice("received corrupt message of type InvalidContentType")
                .unwrap()
                .contains("starttls")
        );
        assert_eq!(advice("connection refused"), None);
    }

    #[test]
    fn a_ca_file_must_hold_certificates() {
        let dir = std::env::temp_dir().join(format!("realmgm-tls-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let empty = dir.join("empty.pem");
        std::fs::write(&empty, "not a certificate\n").unwrap();
        let err = read_ca_file(&empty).unwrap_err();
        assert!(
            err.to_string().contains("holds no PEM certificate"),
            "{err}"
        );
        let err = read_ca_file(&dir.join("missing.pem")).unwrap_err();
        assert!(err.to_string().contains("cannot read the CA file"), "{err}");
        assert!(client_config(None).is_ok());
        assert!(client_config(Some(&empty)).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
