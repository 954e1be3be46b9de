-- Issue 19, live view: the 9 and 16 tile grids play each camera's sub stream (a smaller picture: what recorders
-- and video platforms show in a grid), where the camera gives one. Hikvision, Dahua and Uniview cameras have their
-- vendor's sub stream path; an ONVIF or other camera may be given the address of its own.
alter table cameras add column sub_rtsp_url text;
