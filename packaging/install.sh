#!/usr/bin/env bash
# Install realmgm as a systemd service on this machine (needs root):
# the fastest binary (the dist profile) to /usr/local/bin, a system user `realmgm`, the unit,
# and an empty secrets file for mail passwords. Then store a campaign and
# start the service as the README's "Running it as a service" says.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --profile dist --locked
install -m 755 target/dist/realmgm /usr/local/bin/realmgm
if ! id realmgm >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/realmgm --no-create-home --shell /usr/sbin/nologin realmgm
fi
install -d -m 750 /etc/realmgm
if [ ! -e /etc/realmgm/secrets.env ]; then
    install -m 600 /dev/null /etc/realmgm/secrets.env
fi
install -m 644 packaging/realmgm.service /etc/systemd/system/realmgm.service
systemctl daemon-reload
echo "installed; store a campaign as the realmgm user, then: systemctl enable --now realmgm"
