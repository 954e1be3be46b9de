-- Cameras and video (issue 19; spec §2 /camera, §3 Camera, §6 role camera configuration, §8, §9).

-- Camera groups, three levels deep (spec §9). path: the ids from level 1 down to the group itself. Deleting a
-- group deletes the groups below it, their cameras and the cameras' snapshots (spec §8 warning).
create table camera_groups (
  id serial primary key,
  parent_id integer references camera_groups(id) on delete cascade,
  name text not null,
  level integer not null check (level between 1 and 3),
  path integer[] not null default '{}',
  sort double precision not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((parent_id is null) = (level = 1))
);
create index camera_groups_parent_idx on camera_groups (parent_id);

-- A camera (spec §3): its group and site, serial number, channel 1 to 16, type, vendor, VM code, user and password
-- (AES-GCM with the server secret, never answered), IP, RTSP and ONVIF addresses (without credentials), position.
create table cameras (
  id serial primary key,
  group_id integer not null references camera_groups(id) on delete cascade,
  platform_id integer not null references platforms(id) on delete cascade,
  name text not null,
  serial_number text not null,
  channel integer not null check (channel between 1 and 16),
  type text not null check (type in ('bullet', 'dome', 'ptz', 'fisheye', 'other')),
  vendor text not null check (vendor in ('hikvision', 'dahua', 'uniview', 'onvif', 'other')),
  vm_code text,
  vm_user text,
  vm_password_enc text,
  ip text not null,
  rtsp_url text,
  onvif_url text,
  ptz boolean not null default false,
  lon double precision check (lon between -180 and 180),
  lat double precision check (lat between -90 and 90),
  address text,
  principal text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (serial_number, channel)
);
create index cameras_group_idx on cameras (group_id);
create index cameras_platform_idx on cameras (platform_id);

-- A role's camera configuration (spec §6): restricted roles see only the listed groups (and below) and cameras,
-- within their data scope. No row: every camera of the scope.
create table camera_role_config (
  role_id integer primary key references roles(id) on delete cascade,
  restricted boolean not null default false,
  group_ids integer[] not null default '{}',
  camera_ids integer[] not null default '{}',
  updated_at timestamptz not null default now()
);

-- Camera tasks: snapshots of cameras at times of day, kept retention_days.
create table camera_tasks (
  id serial primary key,
  name text not null,
  kind text not null default 'snapshot' check (kind in ('snapshot')),
  camera_ids integer[] not null,
  times text[] not null,
  retention_days integer not null check (retention_days between 1 and 3650),
  enabled boolean not null default true,
  last_run_at timestamptz,
  created_by integer references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- A picture taken by a task, for an alert, or by hand; the JPEG is DATA_DIR/cameras/<platform>/<camera>/<id>.jpg.
create table camera_snapshots (
  id serial primary key,
  camera_id integer not null references cameras(id) on delete cascade,
  platform_id integer not null references platforms(id) on delete cascade,
  source text not null check (source in ('task', 'alert', 'manual')),
  task_id integer references camera_tasks(id) on delete set null,
  alert_id integer,
  size integer not null,
  taken_at timestamptz not null default now(),
  expires_at timestamptz
);
create index camera_snapshots_camera_idx on camera_snapshots (camera_id, taken_at desc);
create index camera_snapshots_alert_idx on camera_snapshots (alert_id) where alert_id is not null;
create index camera_snapshots_expiry_idx on camera_snapshots (expires_at) where expires_at is not null;
