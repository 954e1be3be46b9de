-- Maps and monitored areas (issue 21). The map configuration itself is the settings row 'map'.

-- Offline tile sets imported through the console: a PMTiles file, or an XYZ folder (MBTiles and zipped XYZ
-- folders are unpacked into one at import), under DATA_DIR/maps/tiles/<id>.
create table map_tile_sets (
  id serial primary key,
  name text not null,
  -- whose tiles (projection and tile scheme): tianditu | amap | google | kml (Web Mercator XYZ) | baidu
  provider text not null,
  -- pmtiles | mbtiles | xyz (what was imported)
  format text not null,
  image_type text not null,
  min_zoom smallint not null,
  max_zoom smallint not null,
  tiles integer not null,
  bytes bigint not null,
  created_at timestamptz not null default now()
);

-- KML, KMZ and GeoJSON layers of a site, or of the system map (platform_id null), kept as GeoJSON in WGS-84.
create table map_layers (
  id serial primary key,
  platform_id integer references platforms(id) on delete cascade,
  name text not null,
  format text not null,
  data jsonb not null,
  points integer not null,
  lines integer not null,
  polygons integer not null,
  created_by integer,
  created_at timestamptz not null default now()
);
create index map_layers_platform on map_layers (platform_id);

-- Monitored areas: a polygon ([lon, lat] ring, WGS-84) of a site, its bounding box, and its state rule.
create table areas (
  id serial primary key,
  platform_id integer not null references platforms(id) on delete cascade,
  name text not null,
  description text,
  ring jsonb not null,
  min_lon double precision not null,
  min_lat double precision not null,
  max_lon double precision not null,
  max_lat double precision not null,
  rule jsonb not null,
  created_by integer,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index areas_platform on areas (platform_id);
-- One name per site (checked by the database: holds under parallel requests).
create unique index areas_site_name on areas (platform_id, lower(name));
