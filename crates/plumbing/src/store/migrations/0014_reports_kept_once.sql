-- Issue 19 §5: a report's mail refers to the stored report for its HTML and
-- attachments instead of carrying copies; a sent mail's contents are dropped
-- once older than the campaign's mail.keep_sent_days (the row stays).

ALTER TABLE outbox ADD COLUMN report_day INTEGER;   -- the report it carries, with report_reader
ALTER TABLE outbox ADD COLUMN report_reader TEXT;   -- as in reports: '' for the GM's history
ALTER TABLE outbox ADD COLUMN pruned INTEGER;       -- when its body, HTML and attachments were dropped
