-- Equipment: monitor types bound to sites, terminals (data loggers), devices, multi-module statistics,
-- responsible persons, external file links and the device import jobs.
-- Depends only on 0001 (platforms, users, roles).

-- Monitor types (module ids of the contract catalogue, spec §1) used on a site.
create table platform_modules (
  platform_id integer not null references platforms(id) on delete cascade,
  module_id smallint not null check (module_id between 1 and 37),
  created_at timestamptz not null default now(),
  primary key (platform_id, module_id)
);

-- Terminals (data loggers). The key is shown once; only sha256(salt || ':' || key) is kept.
create table terminals (
  id serial primary key,
  platform_id integer not null references platforms(id) on delete cascade,
  name text not null,
  serial text not null,
  manufacturer text,
  model text,
  protocol_type text not null,
  port integer check (port between 1 and 65535),
  type text,
  parent_id integer references terminals(id) on delete set null,
  status text not null default 'normal' check (status in ('normal', 'vibration', 'collapse')),
  key_salt text not null,
  key_hash text not null,
  key_rotated_at timestamptz not null default now(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (parent_id is null or parent_id <> id)
);
create unique index terminals_serial_uq on terminals (serial);
create unique index terminals_name_uq on terminals (platform_id, lower(name));
create index terminals_parent_idx on terminals (parent_id);

-- Devices (monitoring instruments). A device with no site is unbound: it keeps its history and its
-- number may be added to a site again. `bound` follows platform_id.
create table devices (
  id serial primary key,
  device_name text not null,
  number text not null,
  description text,
  group_name text,
  module_id smallint not null check (module_id between 1 and 37),
  platform_id integer references platforms(id) on delete set null,
  terminal_id integer references terminals(id) on delete set null,
  bound boolean generated always as (platform_id is not null) stored,
  type text,
  protocol_type text,
  ip text,
  port integer check (port between 1 and 65535),
  installed_depth double precision,
  offset_value double precision,
  offline_hours double precision check (offline_hours > 0),
  station_type text check (station_type in ('base', 'rover')),
  initial_x double precision,
  initial_y double precision,
  initial_z double precision,
  initial_values jsonb not null default '{}',
  filter_threshold double precision,
  communication_type text,
  serial_port text,
  baud_rate integer check (baud_rate > 0),
  initial_level double precision,
  sensitivity_coefficient double precision,
  temperature_coefficient double precision,
  initial_frequency double precision,
  initial_temperature double precision,
  params jsonb not null default '{}',
  state text not null default 'offline' check (state in ('normal', 'alert', 'alarm', 'abnormal', 'offline')),
  last_seen_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index devices_number_uq on devices (number);
create unique index devices_name_uq on devices (lower(device_name));
create index devices_platform_idx on devices (platform_id, module_id);
create index devices_terminal_idx on devices (terminal_id);

-- Multi-module statistics: a named combination of devices of one site.
create table multi_statistics (
  sid serial primary key,
  platform_id integer not null references platforms(id) on delete cascade,
  multi_name text not null,
  multi_statistics_type text not null,
  module_id smallint check (module_id between 1 and 37),
  quantity text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index multi_statistics_name_uq on multi_statistics (platform_id, lower(multi_name));

create table multi_statistic_devices (
  sid integer not null references multi_statistics(sid) on delete cascade,
  device_id integer not null references devices(id) on delete cascade,
  sort integer not null default 0,
  primary key (sid, device_id)
);
create index multi_statistic_devices_device_idx on multi_statistic_devices (device_id);

-- Responsible persons; optionally bound to sites (no binding: visible to every scope).
create table responsible_persons (
  id serial primary key,
  name text not null,
  phone text not null,
  title text,
  company text,
  company_address text,
  email text,
  role_id integer references roles(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index responsible_persons_role_idx on responsible_persons (role_id);

create table person_platforms (
  person_id integer not null references responsible_persons(id) on delete cascade,
  platform_id integer not null references platforms(id) on delete cascade,
  primary key (person_id, platform_id)
);
create index person_platforms_platform_idx on person_platforms (platform_id);

-- External file links (cloud disk links).
create table external_files (
  id serial primary key,
  name text not null,
  url text not null,
  description text,
  role_id integer references roles(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index external_files_role_idx on external_files (role_id);

-- Background import jobs (device import): progress for the web's progress bar.
create table import_jobs (
  id text primary key,
  kind text not null,
  user_id integer references users(id) on delete cascade,
  status text not null default 'running' check (status in ('running', 'done', 'failed')),
  total integer not null default 0,
  done integer not null default 0,
  inserted integer not null default 0,
  errors jsonb not null default '[]',
  created_at timestamptz not null default now(),
  finished_at timestamptz
);
create index import_jobs_created_idx on import_jobs (created_at);
