-- Issue 19 item 4: camera tasks take short recordings as well as snapshots. A recording task records
-- duration_sec seconds (5 to 300) of each camera, remuxed (never transcoded) into an MP4 that is kept like a
-- snapshot: a row of camera_snapshots with media 'mp4' and its duration, the file
-- DATA_DIR/cameras/<platform>/<camera>/<id>.mp4, removed when its retention ends.
alter table camera_tasks drop constraint camera_tasks_kind_check;
alter table camera_tasks add column duration_sec integer;
alter table camera_tasks add constraint camera_tasks_kind_check check (
  (kind = 'snapshot' and duration_sec is null)
  or (kind = 'recording' and duration_sec is not null and duration_sec between 5 and 300)
);

alter table camera_snapshots add column media text not null default 'jpeg' check (media in ('jpeg', 'mp4'));
alter table camera_snapshots add column duration_ms integer check (duration_ms is null or duration_ms >= 0);
alter table camera_snapshots add constraint camera_snapshots_duration_check check (
  (media = 'jpeg' and duration_ms is null) or media = 'mp4'
);
