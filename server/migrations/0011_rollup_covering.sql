-- Charts over long ranges read the rollups by (device, quantity, bucket) and need only the count, sum, min
-- and max of each bucket: the primary keys of the rollups carry those columns (INCLUDE), so a year by hour
-- (8,760 buckets) is an index-only scan of a few hundred index pages instead of thousands of heap pages.
-- The rollups are updated in place as readings arrive: frequent autovacuum keeps their pages all-visible,
-- which index-only scans need.
alter table readings_hourly drop constraint readings_hourly_pkey;
alter table readings_hourly add primary key (device_id, quantity, bucket) include (n, total, min_v, max_v);
alter table readings_hourly set (autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_insert_scale_factor = 0.02);

alter table readings_daily drop constraint readings_daily_pkey;
alter table readings_daily add primary key (device_id, quantity, bucket) include (n, total, min_v, max_v);
alter table readings_daily set (autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_insert_scale_factor = 0.02);
