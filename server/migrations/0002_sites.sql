-- Site registry: administrative regions, enterprises, the common and kind-specific fields of sites,
-- sections (segments) with their capacity tables, core-wall device bindings and river water elevations.

-- Administrative regions: 1 country, 2 province, 3 city, 4 county or district. A site's region is a leaf.
create table regions (
  code text primary key check (code ~ '^[A-Za-z0-9-]{1,20}$'),
  parent_code text references regions(code),
  level smallint not null check (level between 1 and 4),
  name_en text not null,
  name_zh text not null,
  name_ko text not null,
  sort integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((level = 1) = (parent_code is null))
);
create index regions_parent_idx on regions(parent_code);

-- Enterprises / management organisations: 'tailings' for tailings ponds, 'general' for every other kind.
create table enterprises (
  id serial primary key,
  variant text not null check (variant in ('general', 'tailings')),
  name text not null,
  code text,
  description text,
  parent_id integer references enterprises(id) on delete set null,
  address text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index enterprises_name_uq on enterprises(variant, lower(name));
create index enterprises_parent_idx on enterprises(parent_id);

-- The common fields of every site; the kind's own fields live in details (validated by the contract).
alter table platforms
  add column sub_type text,
  add column region_code text references regions(code),
  add column enterprise_id integer references enterprises(id),
  add column organization text,
  add column pictures text[] not null default '{}',
  add column files text[] not null default '{}',
  add column details jsonb not null default '{}'::jsonb,
  add column created_by integer references users(id) on delete set null;
alter table platforms add constraint platforms_lon_range check (lon is null or (lon >= -180 and lon <= 180));
alter table platforms add constraint platforms_lat_range check (lat is null or (lat >= -90 and lat <= 90));
create index platforms_region_idx on platforms(region_code);
create index platforms_enterprise_idx on platforms(enterprise_id);

-- Sections (segments) of reservoirs, rivers, hazard points and slopes. A site with sections cannot be deleted.
create table sections (
  id serial primary key,
  platform_id integer not null references platforms(id),
  name text not null,
  info text,
  bottom_elevation double precision,
  -- Upstream-face points, pixels on the section drawing: [{"x": 10, "y": 20, "elevation": 312.5}, ...]
  upstream_coords jsonb not null default '[]'::jsonb,
  water_level_source text not null default 'manual' check (water_level_source in ('auto', 'manual')),
  manual_water_level double precision,
  file_id text,
  -- Where the section sits on the site's schematic: {"x": .., "y": ..} in pixels.
  position jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index sections_name_uq on sections(platform_id, lower(name));

-- Capacity (storage) tables: of a section, or of the whole site when section_id is null.
create table capacity_rows (
  id serial primary key,
  platform_id integer not null references platforms(id) on delete cascade,
  section_id integer references sections(id) on delete cascade,
  idx integer not null,
  water_level_elevation double precision not null,
  water_volume double precision not null
);
create unique index capacity_rows_uq on capacity_rows(platform_id, coalesce(section_id, 0), idx);

-- Devices bound to a section (core wall, "heart wall"). device_id has no foreign key yet: devices land in 0003.
create table section_devices (
  id serial primary key,
  section_id integer not null references sections(id) on delete cascade,
  device_id integer not null,
  kind text not null default 'heartWall' check (kind in ('heartWall')),
  created_at timestamptz not null default now(),
  unique (section_id, device_id, kind)
);
create index section_devices_device_idx on section_devices(device_id);

-- Manually entered river water elevations.
create table river_water_levels (
  id bigserial primary key,
  section_id integer not null references sections(id) on delete cascade,
  measured_at timestamptz not null,
  elevation double precision not null,
  created_by integer references users(id) on delete set null,
  created_at timestamptz not null default now(),
  unique (section_id, measured_at)
);
create index river_water_levels_at_idx on river_water_levels(measured_at);

-- The regions a demo and most users need; administrators add more (system:data).
insert into regions (code, parent_code, level, name_en, name_zh, name_ko, sort) values
  ('CN', null, 1, 'China', '中国', '중국', 0),
  ('510000', 'CN', 2, 'Sichuan', '四川省', '쓰촨성', 0),
  ('510100', '510000', 3, 'Chengdu', '成都市', '청두시', 0),
  ('510104', '510100', 4, 'Jinjiang District', '锦江区', '진장구', 0),
  ('510105', '510100', 4, 'Qingyang District', '青羊区', '칭양구', 1),
  ('510106', '510100', 4, 'Jinniu District', '金牛区', '진뉴구', 2),
  ('510107', '510100', 4, 'Wuhou District', '武侯区', '우허우구', 3),
  ('510108', '510100', 4, 'Chenghua District', '成华区', '청화구', 4),
  ('510181', '510100', 4, 'Dujiangyan', '都江堰市', '두장옌시', 5),
  ('510182', '510100', 4, 'Pengzhou', '彭州市', '펑저우시', 6),
  ('511800', '510000', 3, 'Ya''an', '雅安市', '야안시', 1),
  ('511802', '511800', 4, 'Yucheng District', '雨城区', '위청구', 0),
  ('511803', '511800', 4, 'Mingshan District', '名山区', '밍산구', 1),
  ('511823', '511800', 4, 'Hanyuan County', '汉源县', '한위안현', 2),
  ('511824', '511800', 4, 'Shimian County', '石棉县', '스몐현', 3),
  ('511826', '511800', 4, 'Lushan County', '芦山县', '루산현', 4),
  ('511827', '511800', 4, 'Baoxing County', '宝兴县', '바오싱현', 5),
  ('513200', '510000', 3, 'Aba Tibetan and Qiang Autonomous Prefecture', '阿坝藏族羌族自治州', '아바 티베트족 창족 자치주', 2),
  ('513201', '513200', 4, 'Barkam', '马尔康市', '마얼캉시', 0),
  ('513221', '513200', 4, 'Wenchuan County', '汶川县', '원촨현', 1),
  ('513223', '513200', 4, 'Mao County', '茂县', '마오현', 2),
  ('513225', '513200', 4, 'Jiuzhaigou County', '九寨沟县', '주자이거우현', 3),
  ('500000', 'CN', 2, 'Chongqing', '重庆市', '충칭시', 1),
  ('500100', '500000', 3, 'Chongqing (districts)', '重庆市辖区', '충칭시 시할구', 0),
  ('500101', '500100', 4, 'Wanzhou District', '万州区', '완저우구', 0),
  ('500102', '500100', 4, 'Fuling District', '涪陵区', '푸링구', 1),
  ('500103', '500100', 4, 'Yuzhong District', '渝中区', '위중구', 2),
  ('500106', '500100', 4, 'Shapingba District', '沙坪坝区', '사핑바구', 3),
  ('500200', '500000', 3, 'Chongqing (counties)', '重庆市辖县', '충칭시 시할현', 1),
  ('500235', '500200', 4, 'Yunyang County', '云阳县', '윈양현', 0),
  ('500236', '500200', 4, 'Fengjie County', '奉节县', '펑제현', 1),
  ('500237', '500200', 4, 'Wushan County', '巫山县', '우산현', 2),
  ('420000', 'CN', 2, 'Hubei', '湖北省', '후베이성', 2),
  ('420100', '420000', 3, 'Wuhan', '武汉市', '우한시', 0),
  ('420102', '420100', 4, 'Jiang''an District', '江岸区', '장안구', 0),
  ('420106', '420100', 4, 'Wuchang District', '武昌区', '우창구', 1),
  ('420111', '420100', 4, 'Hongshan District', '洪山区', '훙산구', 2),
  ('420500', '420000', 3, 'Yichang', '宜昌市', '이창시', 1),
  ('420502', '420500', 4, 'Xiling District', '西陵区', '시링구', 0),
  ('420506', '420500', 4, 'Yiling District (Three Gorges)', '夷陵区', '이링구', 1),
  ('420526', '420500', 4, 'Xingshan County', '兴山县', '싱산현', 2),
  ('420527', '420500', 4, 'Zigui County', '秭归县', '쯔구이현', 3),
  ('530000', 'CN', 2, 'Yunnan', '云南省', '윈난성', 3),
  ('530100', '530000', 3, 'Kunming', '昆明市', '쿤밍시', 0),
  ('530102', '530100', 4, 'Wuhua District', '五华区', '우화구', 0),
  ('530103', '530100', 4, 'Panlong District', '盘龙区', '판룽구', 1),
  ('530112', '530100', 4, 'Xishan District', '西山区', '시산구', 2),
  ('530113', '530100', 4, 'Dongchuan District', '东川区', '둥촨구', 3),
  ('530600', '530000', 3, 'Zhaotong', '昭通市', '자오퉁시', 1),
  ('530602', '530600', 4, 'Zhaoyang District', '昭阳区', '자오양구', 0),
  ('530621', '530600', 4, 'Ludian County', '鲁甸县', '루뎬현', 1),
  ('450000', 'CN', 2, 'Guangxi', '广西壮族自治区', '광시 좡족 자치구', 4),
  ('450100', '450000', 3, 'Nanning', '南宁市', '난닝시', 0),
  ('450103', '450100', 4, 'Qingxiu District', '青秀区', '칭슈구', 0),
  ('450107', '450100', 4, 'Xixiangtang District', '西乡塘区', '시샹탕구', 1),
  ('450300', '450000', 3, 'Guilin', '桂林市', '구이린시', 1),
  ('450302', '450300', 4, 'Xiufeng District', '秀峰区', '슈펑구', 0),
  ('450328', '450300', 4, 'Longsheng County', '龙胜各族自治县', '룽성 각족 자치현', 1),
  ('451000', '450000', 3, 'Baise', '百色市', '바이써시', 2),
  ('451002', '451000', 4, 'Youjiang District', '右江区', '유장구', 0),
  ('330000', 'CN', 2, 'Zhejiang', '浙江省', '저장성', 5),
  ('330100', '330000', 3, 'Hangzhou', '杭州市', '항저우시', 0),
  ('330102', '330100', 4, 'Shangcheng District', '上城区', '상청구', 0),
  ('330106', '330100', 4, 'Xihu District', '西湖区', '시후구', 1),
  ('330108', '330100', 4, 'Binjiang District', '滨江区', '빈장구', 2),
  ('330112', '330100', 4, 'Lin''an District', '临安区', '린안구', 3),
  ('330127', '330100', 4, 'Chun''an County', '淳安县', '춘안현', 4),
  ('331100', '330000', 3, 'Lishui', '丽水市', '리수이시', 1),
  ('331102', '331100', 4, 'Liandu District', '莲都区', '롄두구', 0),
  ('331123', '331100', 4, 'Suichang County', '遂昌县', '쑤이창현', 1),
  ('KR', null, 1, 'South Korea', '韩国', '대한민국', 1),
  ('KR11', 'KR', 2, 'Seoul', '首尔特别市', '서울특별시', 0),
  ('KR11110', 'KR11', 3, 'Jongno-gu', '钟路区', '종로구', 0),
  ('KR11140', 'KR11', 3, 'Jung-gu', '中区', '중구', 1),
  ('KR11440', 'KR11', 3, 'Mapo-gu', '麻浦区', '마포구', 2),
  ('KR11680', 'KR11', 3, 'Gangnam-gu', '江南区', '강남구', 3),
  ('KR26', 'KR', 2, 'Busan', '釜山广域市', '부산광역시', 1),
  ('KR26350', 'KR26', 3, 'Haeundae-gu', '海云台区', '해운대구', 0),
  ('KR47', 'KR', 2, 'Gyeongsangbuk-do', '庆尚北道', '경상북도', 2),
  ('KR47110', 'KR47', 3, 'Pohang', '浦项市', '포항시', 0),
  ('KR47130', 'KR47', 3, 'Gyeongju', '庆州市', '경주시', 1),
  ('KR51', 'KR', 2, 'Gangwon', '江原特别自治道', '강원특별자치도', 3),
  ('KR51110', 'KR51', 3, 'Chuncheon', '春川市', '춘천시', 0),
  ('KR51130', 'KR51', 3, 'Wonju', '原州市', '원주시', 1),
  ('KR51150', 'KR51', 3, 'Gangneung', '江陵市', '강릉시', 2),
  ('KR51760', 'KR51', 3, 'Pyeongchang', '平昌郡', '평창군', 3);
