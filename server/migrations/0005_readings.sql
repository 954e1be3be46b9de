-- Telemetry: raw readings partitioned by month, hour and day rollups per quantity kept current by the
-- ingest writer in the same transaction as the readings, and the newest values per device.
-- Depends on 0003 (devices).

-- Raw readings. One row per (device, timestamp): a repeated reading is stored once. Monthly partitions
-- (readings_yYYYYmMM) are created by the server before it writes into a month; retention drops whole
-- partitions. No foreign key: a deleted device's history is removed by the application.
create table readings (
  device_id integer not null,
  ts timestamptz not null,
  vals jsonb not null,
  received_at timestamptz not null default now(),
  primary key (device_id, ts)
) partition by range (ts);

-- Rollups per device, quantity and UTC hour / UTC day: count, sum, min, max, first and last value.
-- Week, month and year aggregates are computed from the daily rows.
create table readings_hourly (
  device_id integer not null,
  quantity text not null,
  bucket timestamptz not null,
  n integer not null,
  total double precision not null,
  min_v double precision not null,
  max_v double precision not null,
  first_ts timestamptz not null,
  first_v double precision not null,
  last_ts timestamptz not null,
  last_v double precision not null,
  primary key (device_id, quantity, bucket)
);

create table readings_daily (
  device_id integer not null,
  quantity text not null,
  bucket timestamptz not null,
  n integer not null,
  total double precision not null,
  min_v double precision not null,
  max_v double precision not null,
  first_ts timestamptz not null,
  first_v double precision not null,
  last_ts timestamptz not null,
  last_v double precision not null,
  primary key (device_id, quantity, bucket)
);

-- The newest reading of each device (by device timestamp), merged per quantity, for live screens.
alter table devices add column last_reading_at timestamptz;
alter table devices add column last_values jsonb not null default '{}';
create index devices_last_seen_idx on devices (last_seen_at) where platform_id is not null;

-- Ingest rejections by day and reason (bad payloads are also logged with their reason).
create table ingest_rejections (
  day date not null,
  reason text not null,
  n integer not null,
  primary key (day, reason)
);
