#!/usr/bin/env bash
# A throwaway local mail server for realmgm's mail tests and demo.
#
#   scripts/mailserver.sh start    install if missing, configure, start (idempotent)
#   scripts/mailserver.sh stop     stop Postfix and Dovecot
#   scripts/mailserver.sh status   say whether both ports answer (exit 0 when up)
#
# Postfix takes SMTP on 127.0.0.1:2525 and delivers mail for @realmgm.test into
# Maildirs under /var/lib/realmgm-mail/<user>/Maildir; Dovecot serves those
# Maildirs over IMAP on 127.0.0.1:1143 (plain text or STARTTLS) and IMAPS on
# 127.0.0.1:1993, loopback only. Postfix offers STARTTLS on its port too. The
# certificates come from a throwaway CA the script makes with openssl:
# /etc/realmgm-mail/tls/ca.pem is the CA to trust (a campaign's
# `[mail] ca_file`), server.pem names localhost, mail.realmgm.test and
# 127.0.0.1. Nothing is
# relayed anywhere: every other domain is refused, and mail for
# @bounce.realmgm.test is accepted and then bounced at once with a delivery
# status notification to the sender (for bounce tests). The mailboxes and
# their fixed test passwords:
#
#   gm@realmgm.test       gm-secret
#   month@realmgm.test    month-secret   (the GM of the month-long test, apart from the others)
#   trio@realmgm.test     trio-secret    (the GM of three campaigns served by one daemon)
#   player1..6@realmgm.test  player1-secret .. player6-secret
#
# Needs root (it installs Debian packages when they are missing).
set -euo pipefail

SMTP_PORT=2525
IMAP_PORT=1143
IMAPS_PORT=1993
DOMAIN=realmgm.test
MAIL_ROOT=/var/lib/realmgm-mail
CONF_DIR=/etc/realmgm-mail
TLS_DIR=$CONF_DIR/tls
USERS="gm month trio player1 player2 player3 player4 player5 player6"

port_open() {
    # bash's /dev/tcp: true when something accepts on 127.0.0.1:$1.
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

is_up() {
    port_open "$SMTP_PORT" && port_open "$IMAP_PORT" && port_open "$IMAPS_PORT"
}

install_packages() {
    if command -v postfix >/dev/null 2>&1 && command -v dovecot >/dev/null 2>&1 \
        && [ -x /usr/lib/postfix/sbin/smtpd ] && [ -d /usr/lib/dovecot ] \
        && dpkg -s dovecot-imapd >/dev/null 2>&1; then
        return
    fi
    echo "mailserver: installing postfix and dovecot-imapd (local only)"
    export DEBIAN_FRONTEND=noninteractive
    echo "postfix postfix/main_mailer_type select Local only" | debconf-set-selections
    echo "postfix postfix/mailname string $DOMAIN" | debconf-set-selections
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends postfix dovecot-core dovecot-imapd >/dev/null
}

configure_accounts() {
    if ! id vmail >/dev/null 2>&1; then
        useradd --system --home-dir "$MAIL_ROOT" --no-create-home --shell /usr/sbin/nologin vmail
    fi
    mkdir -p "$MAIL_ROOT" "$CONF_DIR"
    local uid gid
    uid=$(id -u vmail)
    gid=$(id -g vmail)
    : >"$CONF_DIR/vmailbox"
    : >"$CONF_DIR/users"
    for user in $USERS; do
        local password="$user-secret"
        echo "$user@$DOMAIN $user/Maildir/" >>"$CONF_DIR/vmailbox"
        echo "$user@$DOMAIN:{PLAIN}$password:$uid:$gid::$MAIL_ROOT/$user" >>"$CONF_DIR/users"
        for sub in new cur tmp; do
            mkdir -p "$MAIL_ROOT/$user/Maildir/$sub"
        done
    done
    chown -R vmail:vmail "$MAIL_ROOT"
    chmod 640 "$CONF_DIR/users"
    chown root:dovecot "$CONF_DIR/users" 2>/dev/null || true
    postmap "$CONF_DIR/vmailbox"
    # Aliased to a domain nobody serves: the error transport bounces it after
    # acceptance, so the sender gets a real DSN.
    echo '/^(.+)@bounce\.realmgm\.test$/ ${1}@gone.invalid' >"$CONF_DIR/bounce_aliases"
}

# A CA and a server certificate signed by it (ECDSA P-256, ten years), made
# once; the CA key never leaves $TLS_DIR.
make_certificates() {
    if [ -s "$TLS_DIR/server.pem" ] && [ -s "$TLS_DIR/ca.pem" ]; then
        return
    fi
    command -v openssl >/dev/null 2>&1 || apt-get install -y -qq --no-install-recommends openssl >/dev/null
    mkdir -p "$TLS_DIR"
    local ec="-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes"
    # shellcheck disable=SC2086
    openssl req -x509 $ec -keyout "$TLS_DIR/ca.key" -out "$TLS_DIR/ca.pem" -days 3650 \
        -subj "/CN=realmgm test mail CA" \
        -addext "basicConstraints=critical,CA:TRUE" \
        -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
    # shellcheck disable=SC2086
    openssl req $ec -keyout "$TLS_DIR/server.key" -out "$TLS_DIR/server.csr" \
        -subj "/CN=mail.$DOMAIN" 2>/dev/null
    printf '%s\n' "subjectAltName=DNS:localhost,DNS:mail.$DOMAIN,IP:127.0.0.1" \
        "basicConstraints=critical,CA:FALSE" \
        "keyUsage=critical,digitalSignature" \
        "extendedKeyUsage=serverAuth" >"$TLS_DIR/server.ext"
    openssl x509 -req -in "$TLS_DIR/server.csr" -CA "$TLS_DIR/ca.pem" -CAkey "$TLS_DIR/ca.key" \
        -CAcreateserial -out "$TLS_DIR/server.pem" -days 3650 -extfile "$TLS_DIR/server.ext" 2>/dev/null
    chmod 600 "$TLS_DIR/ca.key" "$TLS_DIR/server.key"
    chmod 644 "$TLS_DIR/ca.pem" "$TLS_DIR/server.pem"
    chmod 755 "$TLS_DIR"
}

configure_postfix() {
    local uid gid
    uid=$(id -u vmail)
    gid=$(id -g vmail)
    postconf -e \
        "myhostname = mail.$DOMAIN" \
        "mydomain = $DOMAIN" \
        "myorigin = $DOMAIN" \
        "inet_interfaces = loopback-only" \
        "inet_protocols = ipv4" \
        "mydestination = localhost" \
        "mynetworks = 127.0.0.0/8" \
        "relayhost =" \
        "default_transport = error:realmgm test server relays nothing" \
        "relay_transport = error:realmgm test server relays nothing" \
        "smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination" \
        "smtpd_recipient_restrictions = reject_unauth_destination" \
        "virtual_mailbox_domains = $DOMAIN" \
        "virtual_mailbox_base = $MAIL_ROOT" \
        "virtual_mailbox_maps = hash:$CONF_DIR/vmailbox" \
        "virtual_uid_maps = static:$uid" \
        "virtual_gid_maps = static:$gid" \
        "virtual_minimum_uid = 100" \
        "message_size_limit = 52428800" \
        "virtual_mailbox_limit = 0" \
        "relay_domains =" \
        "virtual_alias_domains = bounce.$DOMAIN" \
        "virtual_alias_maps = regexp:$CONF_DIR/bounce_aliases" \
        "transport_maps =" \
        "smtpd_tls_cert_file = $TLS_DIR/server.pem" \
        "smtpd_tls_key_file = $TLS_DIR/server.key" \
        "smtpd_tls_security_level = may" \
        "maillog_file = /var/log/realmgm-postfix.log" \
        "compatibility_level = 3.6"
    # SMTP only on the loopback test port; the standard port 25 listener is
    # removed so this server can never be reached as an MX.
    postconf -MX smtp/inet 2>/dev/null || true
    postconf -M "127.0.0.1:$SMTP_PORT/inet=127.0.0.1:$SMTP_PORT inet n - n - - smtpd"
    # The maillog_file needs the postlog service (Postfix >= 3.4).
    postconf -M "postlog/unix-dgram=postlog unix-dgram n - n - 1 postlogd"
}

configure_dovecot() {
    cat >"$CONF_DIR/dovecot.conf" <<EOF
# realmgm test IMAP server: loopback only, plain text logins, fixed users.
protocols = imap
listen = 127.0.0.1
base_dir = /run/realmgm-dovecot
instance_name = realmgm-dovecot
log_path = /var/log/realmgm-dovecot.log
ssl = yes
ssl_cert = <$TLS_DIR/server.pem
ssl_key = <$TLS_DIR/server.key
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:~/Maildir
first_valid_uid = 100
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u $CONF_DIR/users
}
userdb {
  driver = passwd-file
  args = username_format=%u $CONF_DIR/users
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $IMAP_PORT
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = $IMAPS_PORT
    ssl = yes
  }
}
EOF
}

wait_up() {
    for _ in $(seq 1 50); do
        if is_up; then
            return 0
        fi
        sleep 0.2
    done
    return 1
}

start() {
    if is_up; then
        # A server started by an older script may lack newer mailboxes;
        # Postfix and Dovecot read the rewritten maps without a restart.
        configure_accounts
        echo "mailserver: already running (SMTP 127.0.0.1:$SMTP_PORT, IMAP 127.0.0.1:$IMAP_PORT, IMAPS 127.0.0.1:$IMAPS_PORT)"
        return 0
    fi
    install_packages
    configure_accounts
    make_certificates
    configure_postfix
    configure_dovecot
    newaliases 2>/dev/null || true
    # A server started by an older script (no TLS) is restarted with TLS.
    postfix stop >/dev/null 2>&1 || true
    postfix start
    if port_open "$IMAP_PORT"; then
        doveadm -c "$CONF_DIR/dovecot.conf" stop >/dev/null 2>&1 || true
        for _ in $(seq 1 25); do
            port_open "$IMAP_PORT" || break
            sleep 0.2
        done
    fi
    dovecot -c "$CONF_DIR/dovecot.conf"
    if wait_up; then
        echo "mailserver: running (SMTP+STARTTLS 127.0.0.1:$SMTP_PORT, IMAP+STARTTLS 127.0.0.1:$IMAP_PORT, IMAPS 127.0.0.1:$IMAPS_PORT, domain $DOMAIN, CA $TLS_DIR/ca.pem)"
    else
        echo "mailserver: did not come up; see /var/log/realmgm-postfix.log and /var/log/realmgm-dovecot.log" >&2
        exit 1
    fi
}

stop() {
    if command -v postfix >/dev/null 2>&1; then
        postfix stop >/dev/null 2>&1 || true
    fi
    if [ -f "$CONF_DIR/dovecot.conf" ] && command -v doveadm >/dev/null 2>&1; then
        doveadm -c "$CONF_DIR/dovecot.conf" stop >/dev/null 2>&1 || true
    fi
    echo "mailserver: stopped"
}

status() {
    if is_up; then
        echo "mailserver: up (SMTP 127.0.0.1:$SMTP_PORT, IMAP 127.0.0.1:$IMAP_PORT, IMAPS 127.0.0.1:$IMAPS_PORT)"
    else
        echo "mailserver: down; run scripts/mailserver.sh start"
        return 1
    fi
}

case "${1:-}" in
start) start ;;
stop) stop ;;
status) status ;;
*)
    echo "usage: $0 start|stop|status" >&2
    exit 2
    ;;
esac
