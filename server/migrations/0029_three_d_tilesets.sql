-- Issue 21 item 6: a site's 3D Tiles tileset. The operator puts the tileset's folder (tileset.json and its
-- content) under DATA_DIR/threeD/tilesets/<name>; a holder of 3D management binds it to a site here.
create table three_d_tilesets (
  platform_id integer primary key references platforms(id) on delete cascade,
  name text not null,
  created_by integer references users(id) on delete set null,
  updated_at timestamptz not null default now()
);
