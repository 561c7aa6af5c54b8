-- The consent a GM gave a mail provider (OAuth 2.0) for a campaign's
-- mailbox: the refresh token, and the access token last handed out with
-- when it expires, each sealed with this host's key (ChaCha20-Poly1305),
-- never kept in clear. The token endpoint and client id say which sign-in
-- the grant belongs to, so a campaign file naming another asks for a new
-- login. A revoked grant stays, marked, until the GM signs in again. A
-- host's table: another host has another key, so an export holds none.
-- The generation counts each change of the tokens (login, refresh): a
-- refresh writes, and a refused one revokes, only the generation it read,
-- so one that started before a new login or another refresh cannot
-- overwrite or revoke the newer grant.

CREATE TABLE oauth_grants (
    campaign_id INTEGER PRIMARY KEY REFERENCES campaigns (id),
    token_url TEXT NOT NULL,
    client_id TEXT NOT NULL,
    refresh_token BLOB NOT NULL,
    access_token BLOB,
    access_expires INTEGER,
    granted INTEGER NOT NULL,
    refreshed INTEGER,
    revoked INTEGER,
    revoked_reason TEXT,
    generation INTEGER NOT NULL
);
