-- Device placement for the graphical monitor screens: where a device sits on its site's schematic picture
-- (sketch_x, sketch_y: 0..1 of the picture's width and height, from the top left) and on the map (lon, lat).
-- Either pair may be missing. Removed with the device. Depends on 0003 (devices).
create table device_positions (
  device_id integer primary key references devices(id) on delete cascade,
  sketch_x double precision check (sketch_x between 0 and 1),
  sketch_y double precision check (sketch_y between 0 and 1),
  lon double precision check (lon between -180 and 180),
  lat double precision check (lat between -90 and 90),
  updated_at timestamptz not null default now(),
  check ((sketch_x is null) = (sketch_y is null)),
  check ((lon is null) = (lat is null))
);
