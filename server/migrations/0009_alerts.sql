-- Early warning core: alert criteria, alert values (rules) per device quantity, multi-device rules,
-- alerts with their evidence, the hits folded into them (idempotency key), and the handling history.
-- Depends on 0003 (devices, platforms) and 0001 (users). group_id names a contact group of the
-- notifications feature (0010): no foreign key, so features land in any order.

create table alert_criteria (
  id serial primary key,
  name text not null,
  type text not null,
  description text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table alert_rules (
  id serial primary key,
  device_id integer not null references devices (id) on delete cascade,
  quantity text not null,
  level smallint not null check (level between 1 and 4),
  value_type text not null,
  value double precision not null,
  rate_value double precision,
  direction text not null,
  window_n integer,
  window_unit text,
  ratio double precision check (ratio is null or (ratio >= 0 and ratio <= 1)),
  group_id integer,
  channels text[] not null default '{}',
  push_interval_minutes integer not null default 0,
  enabled boolean not null default true,
  criterion_id integer references alert_criteria (id) on delete set null,
  description text,
  created_by integer,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- One alert value per device, quantity, value type and level.
  constraint alert_rules_unique unique (device_id, quantity, value_type, level)
);
create index alert_rules_enabled_idx on alert_rules (device_id) where enabled;

create table alert_relations (
  id serial primary key,
  platform_id integer not null references platforms (id) on delete cascade,
  name text not null,
  -- [{deviceId, quantity}]
  members jsonb not null,
  value_type text not null,
  direction text not null,
  -- [{level, value}]
  levels jsonb not null,
  window_n integer,
  window_unit text,
  mode text not null default 'any',
  group_id integer,
  channels text[] not null default '{}',
  push_interval_minutes integer not null default 0,
  enabled boolean not null default true,
  description text,
  created_by integer,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table alerts (
  id serial primary key,
  platform_id integer not null,
  device_id integer not null,
  quantity text,
  -- single | multi | offline
  kind text not null,
  -- De-duplication key: one open alert per device and family ('single:<quantity>:<valueType>',
  -- 'multi:<relationId>', 'offline').
  family text not null,
  rule_id integer,
  relation_id integer,
  value_type text not null,
  level smallint not null check (level between 1 and 4),
  first_level smallint not null,
  -- untreated | preProcess | processed
  status text not null default 'untreated',
  threshold double precision,
  first_value double precision,
  last_value double precision,
  metric double precision,
  count integer not null default 1,
  first_at timestamptz not null,
  last_at timestamptz not null,
  escalated_at timestamptz,
  evidence jsonb not null,
  group_id integer,
  channels text[] not null default '{}',
  push_interval_minutes integer not null default 0,
  processing jsonb,
  processed_at timestamptz,
  processed_by integer,
  processed_by_name text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index alerts_open_family_idx on alerts (device_id, family) where status <> 'processed';
create index alerts_platform_idx on alerts (platform_id, last_at desc);
create index alerts_device_idx on alerts (device_id, last_at desc);
create index alerts_first_at_idx on alerts (first_at);

-- Every reading that fired into an alert, keyed by (rule, device, reading time): evaluating the same
-- reading twice adds nothing.
create table alert_hits (
  rule_key text not null,
  device_id integer not null,
  reading_ts timestamptz not null,
  alert_id integer not null references alerts (id) on delete cascade,
  level smallint not null,
  value double precision,
  metric double precision,
  created_at timestamptz not null default now(),
  primary key (rule_key, device_id, reading_ts)
);
create index alert_hits_alert_idx on alert_hits (alert_id, reading_ts desc);

-- Who did what and when: raised / escalated (system), saved / processed (a user).
create table alert_actions (
  id serial primary key,
  alert_id integer not null references alerts (id) on delete cascade,
  at timestamptz not null default now(),
  action text not null,
  user_id integer,
  user_name text,
  level smallint,
  detail jsonb not null default '{}'
);
create index alert_actions_alert_idx on alert_actions (alert_id, at);
