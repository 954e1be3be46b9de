/**
 * The monitor type (module) catalogue, spec §1: module ids 1 to 37. Ids the spec does not list
 * (18, 21, 22, 23, 25, 28, 29, 31, 34) are absent. Each type names the quantities a device of that type
 * reports (the keys of a reading's `values`), with labels in every language and the default unit (spec §9).
 *
 * The spec gives ids 3/11/16 (water level), 4/12 (flow) and 10/17 (pressure) the same name; the second and
 * third labels (reservoir water level, groundwater level, seepage flow, seepage pressure) are our choice so
 * that a picker can tell them apart. Their quantities are the same.
 */

export interface MonitorTypeLabels {
  en: string;
  zh: string;
  ko: string;
}

export interface QuantityDef {
  /** Key of the value in a reading (`values.<key>`). */
  key: string;
  label: MonitorTypeLabels;
  /** Default display unit ('' for a dimensionless value). */
  unit: string;
  /**
   * An amount per reading that adds up over time (rainfall: mm fallen since the last reading): a bucket or
   * window of it is its sum, not its average.
   */
  accumulated?: boolean;
}

export interface MonitorType {
  moduleId: number;
  /** A stable code for programs (camelCase). */
  code: string;
  label: MonitorTypeLabels;
  /** The quantities specific to this type; see quantitiesOf for the full list with the common ones. */
  quantities: readonly QuantityDef[];
}

const q = (key: string, unit: string, en: string, zh: string, ko: string): QuantityDef => ({
  key,
  unit,
  label: { en, zh, ko },
});

const waterLevel = q('waterLevel', 'm', 'Water level', '水位', '수위');
const flow = q('flow', 'L/s', 'Flow', '流量', '유량');
const pressure = q('pressure', 'kPa', 'Pressure', '压力', '압력');
const displacement = q('displacement', 'mm', 'Displacement', '位移', '변위');
const temperature = q('temperature', '°C', 'Temperature', '温度', '온도');

/** Quantities every device may report besides those of its type: supply voltage and battery level. */
export const COMMON_QUANTITIES: readonly QuantityDef[] = [
  q('voltage', 'V', 'Voltage', '电压', '전압'),
  q('battery', '%', 'Battery', '电量', '배터리'),
];

const t = (
  moduleId: number,
  code: string,
  en: string,
  zh: string,
  ko: string,
  quantities: QuantityDef[],
): MonitorType => ({
  moduleId,
  code,
  label: { en, zh, ko },
  quantities,
});

export const MONITOR_TYPES: readonly MonitorType[] = [
  t(1, 'gnss', 'GNSS', 'GNSS', 'GNSS', [
    q('dN', 'mm', 'North displacement', '北向位移', '북향 변위'),
    q('dE', 'mm', 'East displacement', '东向位移', '동향 변위'),
    q('dH', 'mm', 'Vertical displacement', '垂直位移', '수직 변위'),
    q('sats', '', 'Satellites used', '使用卫星数', '사용 위성 수'),
    q('pdop', '', 'PDOP', 'PDOP', 'PDOP'),
    q('fix', '', 'Fixed solution (1 fixed, 0 float)', '固定解 (1 固定, 0 浮动)', '고정해 (1 고정, 0 부동)'),
  ]),
  t(2, 'rain', 'Rain gauge', '雨量', '강우량', [
    { ...q('rainfall', 'mm', 'Rainfall', '雨量', '강우량'), accumulated: true },
  ]),
  t(3, 'waterLevel', 'Water level', '水位', '수위', [waterLevel]),
  t(4, 'flow', 'Flow', '流量', '유량', [flow]),
  t(5, 'deformation', 'Deformation', '变形', '변형', [q('deformation', 'mm', 'Deformation', '变形量', '변형량')]),
  t(6, 'depth', 'Depth', '深度', '심도', [q('depth', 'm', 'Depth', '深度', '깊이')]),
  t(7, 'variable', 'Variable', '变量', '변수', [q('value', '', 'Value', '数值', '값')]),
  t(8, 'temperatureHumidity', 'Temperature and humidity', '温湿度', '온습도', [
    temperature,
    q('humidity', '%RH', 'Humidity', '湿度', '습도'),
    // Weather stations of this type also report wind (spec §3 Monitor record; direction shown as compass names, §4).
    q('windSpeed', 'm/s', 'Wind speed', '风速', '풍속'),
    q('windDirection', '°', 'Wind direction', '风向', '풍향'),
  ]),
  t(9, 'tilt', 'Tilt', '倾角', '경사', [
    q('tiltX', '°', 'Tilt X', 'X 倾角', 'X 경사'),
    q('tiltY', '°', 'Tilt Y', 'Y 倾角', 'Y 경사'),
  ]),
  t(10, 'pressure', 'Pressure', '压力', '압력', [pressure]),
  t(11, 'reservoirWaterLevel', 'Water level (reservoir)', '库水位', '저수위', [waterLevel]),
  t(12, 'seepageFlow', 'Flow (seepage)', '渗流量', '침투 유량', [flow]),
  t(13, 'xyDeformation', 'X/Y deformation', 'X/Y 变形', 'X/Y 변형', [
    q('dX', 'mm', 'X deformation', 'X 向变形', 'X 방향 변형'),
    q('dY', 'mm', 'Y deformation', 'Y 向变形', 'Y 방향 변형'),
  ]),
  t(14, 'moisture', 'Moisture', '含水率', '함수율', [q('moisture', '%', 'Moisture', '含水率', '함수율')]),
  t(15, 'dryBeachLength', 'Dry beach length', '干滩长度', '건조 해빈 길이', [
    q('beachLength', 'm', 'Dry beach length', '干滩长度', '건조 해빈 길이'),
  ]),
  t(16, 'groundwaterLevel', 'Water level (groundwater)', '地下水位', '지하수위', [waterLevel]),
  t(17, 'seepagePressure', 'Pressure (seepage)', '渗压', '침투압', [pressure]),
  t(19, 'solar', 'Solar', '太阳能', '태양광', [
    q('panelVoltage', 'V', 'Panel voltage', '电池板电压', '패널 전압'),
    q('chargeCurrent', 'A', 'Charge current', '充电电流', '충전 전류'),
  ]),
  t(20, 'anchorLoad', 'Anchor load', '锚索应力', '앵커 하중', [
    q('anchorLoad', 'kN', 'Anchor load', '锚索应力', '앵커 하중'),
  ]),
  t(24, 'collapse', 'Collapse', '崩塌', '붕괴', [
    displacement,
    q('acceleration', 'm/s²', 'Acceleration', '加速度', '가속도'),
  ]),
  t(26, 'totalChange', 'Total change', '累计变化', '총 변화량', [
    q('totalChange', 'mm', 'Total change', '累计变化量', '총 변화량'),
  ]),
  t(27, 'strain', 'Strain', '应变', '변형률', [q('strain', 'µε', 'Strain', '应变', '변형률'), temperature]),
  t(30, 'displacement', 'Displacement', '位移', '변위', [displacement]),
  t(32, 'waterQuality', 'Water quality', '水质', '수질', [
    q('pH', 'pH', 'pH', 'pH 值', 'pH'),
    q('conductivity', 'µS/cm', 'Conductivity', '电导率', '전도도'),
    q('turbidity', 'NTU', 'Turbidity', '浊度', '탁도'),
    q('dissolvedOxygen', 'mg/L', 'Dissolved oxygen', '溶解氧', '용존 산소'),
    q('ammoniaNitrogen', 'mg/L', 'Ammonia nitrogen', '氨氮', '암모니아성 질소'),
    q('totalPhosphorus', 'mg/L', 'Total phosphorus', '总磷', '총인'),
    q('totalNitrogen', 'mg/L', 'Total nitrogen', '总氮', '총질소'),
  ]),
  t(33, 'gate', 'Gate', '闸门', '수문', [q('gateOpening', 'm', 'Gate opening', '闸门开度', '수문 개도')]),
  t(35, 'leadTensiometer', 'Lead tensiometer', '引张线仪', '인장선 측정기', [displacement]),
  t(36, 'vibration', 'Vibration', '振动', '진동', [
    q('velocity', 'mm/s', 'Vibration velocity', '振动速度', '진동 속도'),
    q('frequency', 'Hz', 'Frequency', '频率', '주파수'),
  ]),
  t(37, 'horizontalVertical', 'Horizontal/vertical', '水平/垂直位移', '수평/수직 변위', [
    q('horizontal', 'mm', 'Horizontal displacement', '水平位移', '수평 변위'),
    q('vertical', 'mm', 'Vertical displacement', '垂直位移', '수직 변위'),
  ]),
];

/** Module id of GNSS devices (their own add/edit routes validate the solution parameters). */
export const GNSS_MODULE_ID = 1;

const BY_ID = new Map(MONITOR_TYPES.map((m) => [m.moduleId, m]));

export const MONITOR_TYPE_IDS: readonly number[] = MONITOR_TYPES.map((m) => m.moduleId);

export function isMonitorTypeId(moduleId: unknown): moduleId is number {
  return typeof moduleId === 'number' && BY_ID.has(moduleId);
}

export function monitorTypeOf(moduleId: number): MonitorType | undefined {
  return BY_ID.get(moduleId);
}

/**
 * Every quantity a device of this monitor type reports: those of its type, then voltage and battery.
 * Unknown ids answer an empty list.
 */
export function quantitiesOf(moduleId: number): QuantityDef[] {
  const m = BY_ID.get(moduleId);
  if (!m) return [];
  const own = new Set(m.quantities.map((x) => x.key));
  return [...m.quantities, ...COMMON_QUANTITIES.filter((c) => !own.has(c.key))];
}

/** How buckets of a quantity combine: 'sum' for an accumulated quantity (rainfall), else 'avg'. */
export function aggregateOf(moduleId: number, key: string): 'sum' | 'avg' {
  return quantitiesOf(moduleId).some((x) => x.key === key && x.accumulated) ? 'sum' : 'avg';
}

const KEYS = new Map<number, ReadonlySet<string>>();

/** The keys of quantitiesOf(moduleId), as a set made once per type (ingest checks every reading against it). */
export function quantityKeysOf(moduleId: number): ReadonlySet<string> {
  let keys = KEYS.get(moduleId);
  if (!keys) KEYS.set(moduleId, (keys = new Set(quantitiesOf(moduleId).map((q) => q.key))));
  return keys;
}

/** The label of a monitor type in a language ('' for an unknown id). */
export function monitorTypeLabel(moduleId: number, lang: keyof MonitorTypeLabels): string {
  return BY_ID.get(moduleId)?.label[lang] ?? '';
}
