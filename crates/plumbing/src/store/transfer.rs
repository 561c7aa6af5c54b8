//! Moving one campaign between databases: `campaign export`
//! writes a campaign with all its days, orders, events, reports, rulings and
//! mail to a file of its own, and `campaign import` adds such a file to
//! another database, on another host or the same one.
//!
//! The export file is itself a realmgm database holding just that campaign,
//! so it carries its schema version. An export is data from elsewhere:
//! `transfer/check.rs` refuses one that is not exactly what `campaign
//! export` writes, and migrates a private copy of an older one, never the
//! file itself.
//! Both directions are one copy ([`copy_campaign`]) between the open
//! database and an attached one, naming only the columns of this realmgm's
//! own schema; the rows keep their meaning while their ids are renumbered
//! past the ids the receiving database already uses.

pub(super) mod check;

use std::path::Path;

use rusqlite::{Connection, params};

use super::StoreError;

/// The schema name the other database is attached under during a copy.
pub(super) const OTHER: &str = "other";

/// Tables of the host, not of any campaign: which IMAP messages this
/// database has fetched, and how its daemon watches that mailbox, belong
/// to the mailbox it reads, so an imported campaign starts from the
/// receiving host's record; a campaign's OAuth grant is sealed with this
/// host's key, so on another host the GM signs in again. An export holds
/// no rows there.
const HOST_TABLES: &[&str] = &["imap_mailboxes", "mailbox_watch", "oauth_grants"];

/// How a table's rows belong to a campaign, and how its ids and references
/// are renumbered in the receiving database.
struct Table {
    name: &'static str,
    /// The SQL condition (on the source row, aliased `s`) that picks the
    /// campaign's rows; `{from}` is the source schema, `{c}` the campaign id.
    rows: &'static str,
    /// What happens to an `id` column.
    id: Id,
    /// Columns that refer to another table's renumbered ids.
    references: &'static [(&'static str, Reference)],
}

#[derive(Clone, Copy, PartialEq)]
enum Id {
    /// The table has no `id` of its own (its key includes the campaign).
    None,
    /// The campaign's own id: the one the receiving database gives it.
    Campaign,
    /// Shifted past the receiving table's highest id, so rows that refer to
    /// it can be renumbered the same way.
    Shifted(Reference),
    /// A fresh id: nothing refers to these rows.
    Fresh,
}

#[derive(Clone, Copy, PartialEq)]
enum Reference {
    Player,
    Outbox,
    /// Inbound mail is kept once per database (its message id and content
    /// hash are unique), so a mail the receiver holds already is referred to
    /// by the receiver's id.
    InboundMail,
}

impl Reference {
    /// The table whose ids this refers to.
    fn table(self) -> &'static str {
        match self {
            Reference::Player => "players",
            Reference::Outbox => "outbox",
            Reference::InboundMail => "inbound_mail",
        }
    }
}

/// The mail a campaign received: what its orders and its GM's log name.
const INBOUND_MAIL: Table = Table {
    name: "inbound_mail",
    rows: "s.id IN (SELECT source_mail FROM {from}.order_submissions WHERE campaign_id = {c}) \
           OR s.id IN (SELECT inbound_id FROM {from}.gm_log WHERE campaign_id = {c})",
    id: Id::Shifted(Reference::InboundMail),
    references: &[],
};

impl Table {
    /// The condition picking campaign `campaign`'s rows in schema `schema`.
    fn rows_of(&self, schema: &str, campaign: i64) -> String {
        self.rows
            .replace("{from}", schema)
            .replace("{c}", &campaign.to_string())
    }
}

/// Every table that holds a campaign's data, in an order that fills each
/// referenced table before the tables that refer to it.
const TABLES: &[Table] = &[
    Table {
        name: "campaigns",
        rows: "s.id = {c}",
        id: Id::Campaign,
        references: &[],
    },
    Table {
        name: "players",
        rows: "s.campaign_id = {c}",
        id: Id::Shifted(Reference::Player),
        references: &[],
    },
    INBOUND_MAIL,
    Table {
        name: "outbox",
        rows: "s.campaign_id = {c}",
        id: Id::Shifted(Reference::Outbox),
        references: &[],
    },
    Table {
        name: "outbox_attachments",
        rows: "s.outbox_id IN (SELECT id FROM {from}.outbox WHERE campaign_id = {c})",
        id: Id::None,
        references: &[("outbox_id", Reference::Outbox)],
    },
    Table {
        name: "order_submissions",
        rows: "s.campaign_id = {c}",
        id: Id::Fresh,
        references: &[
            ("player_id", Reference::Player),
            ("source_mail", Reference::InboundMail),
        ],
    },
    Table {
        name: "gm_log",
        rows: "s.campaign_id = {c}",
        id: Id::Fresh,
        references: &[("inbound_id", Reference::InboundMail)],
    },
    Table {
        name: "bounces",
        rows: "s.campaign_id = {c}",
        id: Id::Fresh,
        references: &[("player_id", Reference::Player)],
    },
    Table {
        name: "game_days",
        rows: "s.campaign_id = {c}",
        id: Id::None,
        references: &[],
    },
    Table {
        name: "events",
        rows: "s.campaign_id = {c}",
        id: Id::None,
        references: &[],
    },
    Table {
        name: "daemon_state",
        rows: "s.campaign_id = {c}",
        id: Id::None,
        references: &[],
    },
    Table {
        name: "deadline_extensions",
        rows: "s.campaign_id = {c}",
        id: Id::None,
        references: &[],
    },
    Table {
        name: "reports",
        rows: "s.campaign_id = {c}",
        id: Id::None,
        references: &[],
    },
    Table {
        name: "report_attachments",
        rows: "s.campaign_id = {c}",
        id: Id::None,
        references: &[],
    },
    Table {
        name: "day_runs",
        rows: "s.campaign_id = {c}",
        id: Id::Fresh,
        references: &[],
    },
    Table {
        name: "relayed_messages",
        rows: "s.campaign_id = {c}",
        id: Id::Fresh,
        references: &[],
    },
    Table {
        name: "news_deliveries",
        rows: "s.campaign_id = {c}",
        id: Id::Fresh,
        references: &[],
    },
    Table {
        name: "setup_by_mail",
        rows: "s.campaign_id = {c}",
        id: Id::None,
        references: &[],
    },
    Table {
        name: "combat_rounds",
        rows: "s.campaign_id = {c}",
        id: Id::None,
        references: &[],
    },
    Table {
        name: "announcements",
        rows: "s.campaign_id = {c}",
        id: Id::Fresh,
        references: &[],
    },
    Table {
        name: "absences",
        rows: "s.campaign_id = {c}",
        id: Id::None,
        references: &[],
    },
    Table {
        name: "rulings",
        rows: "s.campaign_id = {c}",
        id: Id::Fresh,
        references: &[],
    },
    Table {
        name: "narratives",
        rows: "s.campaign_id = {c}",
        id: Id::Fresh,
        references: &[],
    },
];

/// What a copy moved, for the GM's confirmation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transfer {
    pub campaign: String,
    pub days: u32,
    pub players: u32,
    /// Mail the campaign received (orders, GM commands) and sent.
    pub mails_in: u32,
    pub mails_out: u32,
}

pub(super) fn attach(conn: &Connection, file: &Path) -> Result<(), StoreError> {
    let path = file.to_str().ok_or_else(|| StoreError::NotAnExport {
        file: file.display().to_string(),
        why: "its path is not UTF-8".to_string(),
    })?;
    conn.execute(&format!("ATTACH DATABASE ?1 AS {OTHER}"), params![path])?;
    Ok(())
}

pub(super) fn detach(conn: &Connection) -> Result<(), StoreError> {
    conn.execute(&format!("DETACH DATABASE {OTHER}"), [])?;
    Ok(())
}

/// Copy campaign `id` with all its rows from schema `from` to schema `to`
/// in one transaction: all of it arrives, or none.
pub(super) fn copy_campaign(
    conn: &Connection,
    from: &str,
    to: &str,
    id: i64,
) -> Result<Transfer, StoreError> {
    let tx = conn.unchecked_transaction()?;
    let highest = |table: &str| -> Result<i64, StoreError> {
        Ok(tx.query_row(
            &format!("SELECT COALESCE(MAX(id), 0) FROM {to}.{}", quoted(table)),
            [],
            |row| row.get(0),
        )?)
    };
    let new_campaign = highest("campaigns")? + 1;
    let player_shift = highest("players")?;
    let outbox_shift = highest("outbox")?;
    let mail_shift = highest("inbound_mail")?;
    let shift = |reference: Reference| match reference {
        Reference::Player => player_shift,
        Reference::Outbox => outbox_shift,
        Reference::InboundMail => mail_shift,
    };
    let renumbered = |reference: Reference, value: &str| match reference {
        Reference::Player | Reference::Outbox => format!("{value} + {}", shift(reference)),
        Reference::InboundMail => format!(
            "(SELECT d.id FROM {to}.inbound_mail d JOIN {from}.inbound_mail m \
             ON d.message_id = m.message_id AND d.content_hash = m.content_hash \
             WHERE m.id = {value})"
        ),
    };
    for table in TABLES {
        // The receiving side was made by this realmgm (the attached export
        // is checked to match it), so its columns are the ones named.
        let columns = columns(&tx, to, table.name)?;
        let mut names = Vec::new();
        let mut values = Vec::new();
        for column in &columns {
            let value = format!("s.{}", quoted(column));
            let reference = table.references.iter().find(|(c, _)| c == column);
            let expression = match (column.as_str(), table.id, reference) {
                ("id", Id::Fresh, _) => continue,
                ("id", Id::Campaign, _) => new_campaign.to_string(),
                ("id", Id::Shifted(reference), _) => format!("{value} + {}", shift(reference)),
                ("campaign_id", ..) => new_campaign.to_string(),
                (_, _, Some((_, reference))) => renumbered(*reference, &value),
                _ => value,
            };
            names.push(quoted(column));
            values.push(expression);
        }
        // A mail the receiver holds already stays as it is there.
        let verb = if table.name == "inbound_mail" {
            "INSERT OR IGNORE"
        } else {
            "INSERT"
        };
        let rows = table.rows_of(from, id);
        tx.execute(
            &format!(
                "{verb} INTO {to}.{name} ({names}) SELECT {values} FROM {from}.{name} s \
                 WHERE {rows}",
                name = quoted(table.name),
                names = names.join(", "),
                values = values.join(", "),
            ),
            [],
        )?;
    }
    let count = |sql: &str| -> Result<u32, StoreError> {
        Ok(tx.query_row(sql, params![new_campaign], |row| row.get(0))?)
    };
    let transfer = Transfer {
        campaign: tx.query_row(
            &format!("SELECT name FROM {to}.campaigns WHERE id = ?1"),
            params![new_campaign],
            |row| row.get(0),
        )?,
        days: count(&format!(
            "SELECT COALESCE(MAX(day), 0) FROM {to}.game_days WHERE campaign_id = ?1"
        ))?,
        players: count(&format!(
            "SELECT COUNT(*) FROM {to}.players WHERE campaign_id = ?1"
        ))?,
        mails_in: tx.query_row(
            &format!(
                "SELECT COUNT(*) FROM {to}.inbound_mail s WHERE {}",
                INBOUND_MAIL.rows_of(to, new_campaign)
            ),
            [],
            |row| row.get(0),
        )?,
        mails_out: count(&format!(
            "SELECT COUNT(*) FROM {to}.outbox WHERE campaign_id = ?1"
        ))?,
    };
    tx.commit()?;
    Ok(transfer)
}

/// The columns of `table` in schema `schema`, in their order.
fn columns(conn: &Connection, schema: &str, table: &str) -> Result<Vec<String>, StoreError> {
    let mut statement = conn.prepare("SELECT name FROM pragma_table_info(?1, ?2)")?;
    let names = statement
        .query_map(params![table, schema], |row| row.get::<_, String>(0))?
        .collect::<Result<_, _>>()?;
    Ok(names)
}

/// `name` as an SQL identifier, whatever it holds.
fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

#[cfg(test)]
mod tests;
