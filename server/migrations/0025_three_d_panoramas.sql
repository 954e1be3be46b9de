-- Issue 21 items 6 and 7: a site's 3D model with its devices placed on it, and 360° panoramas with hotspots.

-- One model per site (a GLB file under DATA_DIR/threeD); replacing it keeps the placements.
create table three_d_models (
  id serial primary key,
  platform_id integer not null references platforms(id) on delete cascade,
  name text not null,
  file_key text not null,
  size bigint not null check (size > 0),
  triangles bigint not null default 0 check (triangles >= 0),
  created_by integer references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index three_d_models_platform_uq on three_d_models (platform_id);

-- A device's place on its site's model, in the model's coordinates (metres, y up); height = y.
create table three_d_placements (
  device_id integer primary key references devices(id) on delete cascade,
  platform_id integer not null references platforms(id) on delete cascade,
  x double precision not null,
  y double precision not null,
  z double precision not null,
  updated_at timestamptz not null default now()
);
create index three_d_placements_platform_idx on three_d_placements (platform_id);

-- Equirectangular photos (width = 2 x height) under DATA_DIR/panoramas.
create table panoramas (
  id serial primary key,
  platform_id integer not null references platforms(id) on delete cascade,
  name text not null,
  file_key text not null,
  ext text not null check (ext in ('jpg', 'png')),
  width integer not null check (width > 0),
  height integer not null check (height > 0),
  size bigint not null check (size > 0),
  created_by integer references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index panoramas_platform_idx on panoramas (platform_id);
create unique index panoramas_name_uq on panoramas (platform_id, lower(name));

-- A point of a panorama: a device's live value, or a link to another panorama of the same site.
create table panorama_hotspots (
  id serial primary key,
  panorama_id integer not null references panoramas(id) on delete cascade,
  kind text not null check (kind in ('device', 'link')),
  yaw double precision not null check (yaw >= -180 and yaw <= 180),
  pitch double precision not null check (pitch >= -90 and pitch <= 90),
  device_id integer references devices(id) on delete cascade,
  target_id integer references panoramas(id) on delete cascade,
  label text,
  check ((kind = 'device' and device_id is not null and target_id is null)
      or (kind = 'link' and target_id is not null and device_id is null))
);
create index panorama_hotspots_panorama_idx on panorama_hotspots (panorama_id);
