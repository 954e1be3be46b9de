-- Home and the big screen (issue 18) read, on every call, the newest alerts of the caller's scope and the alerts
-- raised over the last 30 days by day, level and monitor type.
-- 1. The newest alerts: without an index on last_at alone, a year of alerts (tens of thousands) is read and
--    sorted for ten rows; with it, the scan walks back from the newest and stops (the alert list's default
--    order, last_at desc then id desc, uses it too).
create index alerts_last_at_idx on alerts (last_at desc, id desc);
-- 2. The days: first_at with the columns the count groups and joins by, so 30 days of alerts are an index-only
--    scan. It serves every range on first_at (getCounts, the report), so it replaces the plain first_at index.
create index alerts_first_at_cover_idx on alerts (first_at) include (platform_id, level, kind, device_id);
drop index if exists alerts_first_at_idx;
