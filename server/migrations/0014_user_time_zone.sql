-- Time in the user's own clock: each user may have an IANA time zone (null: the server's TIME_ZONE). The
-- console sets it to the browser's zone at the first login; the user changes it in user info.
alter table users add column time_zone text;
alter table users add constraint users_time_zone_len check (time_zone is null or length(time_zone) between 1 and 64);
