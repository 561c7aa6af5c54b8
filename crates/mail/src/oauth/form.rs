//! `application/x-www-form-urlencoded` and URL query strings: what the
//! authorization request, the redirect and the local test endpoint read
//! and write (the HTTP client encodes its own request bodies).

/// Percent-encode everything but RFC 3986's unreserved characters.
pub fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Undo [`encode`] (and `+` for a space); a broken escape is kept as written.
pub fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let escaped = (bytes[at] == b'%')
            .then(|| text.get(at + 1..at + 3))
            .flatten()
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match (bytes[at], escaped) {
            (_, Some(byte)) => {
                out.push(byte);
                at += 2;
            }
            (b'+', None) => out.push(b' '),
            (other, None) => out.push(other),
        }
        at += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `key=value&…` pairs, decoded.
pub fn pairs(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter(|part| !part.is_empty())
        .map(|part| {
            let (key, value) = part.split_once('=').unwrap_or((part, ""));
            (decode(key), decode(value))
        })
        .collect()
}

/// The value of `key` among `pairs`.
pub fn value<'a>(pairs: &'a [(String, String)], key: &str) -> Option<&'a str> {
    pairs
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// `base?k=v&…`, each part encoded.
pub fn url_with_query(base: &str, params: &[(&str, &str)]) -> String {
    let query: Vec<String> = params
        .iter()
        .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
        .collect();
    let joiner = if base.contains('?') { '&' } else { '?' };
    format!("{base}{joiner}{}", query.join("&"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let text = "https://mail.google.com/ a+b=c&d~é";
        assert_eq!(decode(&encode(text)), text);
        assert_eq!(encode("a b/c"), "a%20b%2Fc");
    }

    #[test]
    fn queries_are_read_leniently() {
        let pairs = pairs("code=4%2F0Ab&state=x+y&empty&bad=%zz");
        assert_eq!(value(&pairs, "code"), Some("4/0Ab"));
        assert_eq!(value(&pairs, "state"), Some("x y"));
        assert_eq!(value(&pairs, "empty"), Some(""));
        assert_eq!(value(&pairs, "bad"), Some("%zz"));
        assert_eq!(value(&pairs, "none"), None);
    }

    #[test]
    fn urls_get_their_query() {
        assert_eq!(
            url_with_query("https://x/auth", &[("a", "1 2"), ("b", "/")]),
            "https://x/auth?a=1%202&b=%2F"
        );
        assert_eq!(
            url_with_query("https://x/a?t=1", &[("b", "2")]),
            "https://x/a?t=1&b=2"
        );
    }
}
