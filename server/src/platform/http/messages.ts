import type { Language } from '@geosentry/contract';

/**
 * The server's user-visible messages (the envelope's `info`), in every language (spec §8).
 * `{name}` placeholders are filled from the error's parameters.
 */
export const MESSAGES = {
  ok: { en: 'Success', zh: '成功', ko: '성공' },
  created: { en: 'Added successfully', zh: '添加成功', ko: '추가되었습니다' },
  modified: { en: 'Modified successfully', zh: '修改成功', ko: '수정되었습니다' },
  deleted: { en: 'Deleted successfully', zh: '删除成功', ko: '삭제되었습니다' },
  setOk: { en: 'Set successfully', zh: '设置成功', ko: '설정되었습니다' },
  passwordChanged: {
    en: 'Modified successfully, please log in again',
    zh: '修改成功，请重新登录',
    ko: '수정되었습니다. 다시 로그인하세요',
  },
  badRequest: { en: 'Request error', zh: '请求错误', ko: '요청 오류' },
  malformedBody: {
    en: 'The request body is not valid {format}',
    zh: '请求体不是有效的 {format}',
    ko: '요청 본문이 올바른 {format} 형식이 아닙니다',
  },
  tooLarge: { en: 'The request is too large', zh: '请求过大', ko: '요청이 너무 큽니다' },
  unsupportedType: { en: 'Format unavailable', zh: '格式不可用', ko: '지원하지 않는 형식입니다' },
  notFound: { en: 'Address not found', zh: '地址不存在', ko: '주소를 찾을 수 없습니다' },
  serverError: {
    en: 'Server error, please try again later',
    zh: '服务器错误，请稍后再试',
    ko: '서버 오류입니다. 잠시 후 다시 시도하세요',
  },
  validation: { en: 'Invalid input: {details}', zh: '输入有误：{details}', ko: '입력 오류: {details}' },
  notLoggedIn: { en: 'Not logged in', zh: '未登录', ko: '로그인하지 않았습니다' },
  loginExpired: {
    en: 'Login expired, please log in again',
    zh: '登录已过期，请重新登录',
    ko: '로그인이 만료되었습니다. 다시 로그인하세요',
  },
  tokenExpired: { en: 'Token expired', zh: '令牌已过期', ko: '토큰이 만료되었습니다' },
  noPermission: { en: 'No permission', zh: '没有权限', ko: '권한이 없습니다' },
  originNotAllowed: {
    en: 'Connections from this site are not allowed',
    zh: '不允许来自该网站的连接',
    ko: '이 사이트에서의 연결은 허용되지 않습니다',
  },
  notCertified: { en: 'Not certified', zh: '未认证', ko: '인증되지 않았습니다' },
  loggedOutElsewhere: {
    en: 'Your account was logged in elsewhere, please log in again',
    zh: '账号已在别处登录，请重新登录',
    ko: '다른 곳에서 로그인되었습니다. 다시 로그인하세요',
  },
  accountPasswordRequired: {
    en: 'Please enter account and password',
    zh: '请输入账号和密码',
    ko: '계정과 비밀번호를 입력하세요',
  },
  wrongPassword: {
    en: 'Wrong account or password, {remaining} attempts remaining',
    zh: '账号或密码错误，还剩 {remaining} 次机会',
    ko: '계정 또는 비밀번호가 틀렸습니다. 남은 시도 {remaining}회',
  },
  locked10: {
    en: 'Too many wrong attempts: the account is locked for 10 minutes',
    zh: '错误次数过多，账号已锁定 10 分钟',
    ko: '시도 횟수 초과: 계정이 10분간 잠겼습니다',
  },
  lockedMinutes: {
    en: 'The account is locked, try again in {minutes} minutes',
    zh: '账号已锁定，请 {minutes} 分钟后再试',
    ko: '계정이 잠겼습니다. {minutes}분 후 다시 시도하세요',
  },
  lockedDay: {
    en: 'Wrong again: the account is locked for one day',
    zh: '再次输入错误，账号已锁定一天',
    ko: '다시 틀렸습니다: 계정이 하루 동안 잠겼습니다',
  },
  tryTomorrow: {
    en: 'Daily limit reached, please try again tomorrow',
    zh: '已达今日上限，请明天再试',
    ko: '오늘 한도에 도달했습니다. 내일 다시 시도하세요',
  },
  captchaRequired: { en: 'Please enter the identifying code', zh: '请输入验证码', ko: '인증 코드를 입력하세요' },
  captchaWrong: { en: 'The identifying code is incorrect', zh: '验证码错误', ko: '인증 코드가 올바르지 않습니다' },
  captchaExpired: { en: 'The identifying code has expired', zh: '验证码已过期', ko: '인증 코드가 만료되었습니다' },
  loginTimeout: {
    en: 'Login timeout: check your computer clock and try again',
    zh: '登录超时：请检查电脑时间后重试',
    ko: '로그인 시간 초과: 컴퓨터 시계를 확인하고 다시 시도하세요',
  },
  loginFailed: { en: 'Login failed', zh: '登录失败', ko: '로그인에 실패했습니다' },
  loginThrottled: {
    en: 'Too many login attempts from your address, please try again later',
    zh: '该地址登录尝试过于频繁，请稍后再试',
    ko: '이 주소에서 로그인 시도가 너무 많습니다. 잠시 후 다시 시도하세요',
  },
  userDisabled: {
    en: 'The user has been deleted or disabled',
    zh: '用户已被删除或禁用',
    ko: '삭제되었거나 비활성화된 사용자입니다',
  },
  loginElsewhere: {
    en: 'Another person is already logged in with this account',
    zh: '该账号已在别处登录',
    ko: '다른 사람이 이 계정으로 이미 로그인했습니다',
  },
  samePassword: {
    en: 'The new password is the same as the old one',
    zh: '新密码与旧密码相同',
    ko: '새 비밀번호가 이전 비밀번호와 같습니다',
  },
  oldPasswordWrong: { en: 'The old password is wrong', zh: '原密码错误', ko: '이전 비밀번호가 틀렸습니다' },
  passwordTooShort: {
    en: 'The password must have at least {min} characters',
    zh: '密码至少 {min} 个字符',
    ko: '비밀번호는 {min}자 이상이어야 합니다',
  },
  passwordTooLong: {
    en: 'The password must have at most {max} characters',
    zh: '密码最多 {max} 个字符',
    ko: '비밀번호는 최대 {max}자입니다',
  },
  passwordCommon: {
    en: 'This password is too common, choose another',
    zh: '密码过于常见，请换一个',
    ko: '너무 흔한 비밀번호입니다. 다른 비밀번호를 선택하세요',
  },
  passwordSameAsAccount: {
    en: 'The password must differ from the account',
    zh: '密码不能与账号相同',
    ko: '비밀번호는 계정과 달라야 합니다',
  },
  accountExists: { en: 'The account already exists', zh: '账号已存在', ko: '이미 존재하는 계정입니다' },
  roleCodeExists: { en: 'The role code already exists', zh: '角色编码已存在', ko: '이미 존재하는 역할 코드입니다' },
  permissionCodeExists: {
    en: 'The permission code already exists',
    zh: '权限编码已存在',
    ko: '이미 존재하는 권한 코드입니다',
  },
  nameDuplicate: { en: 'The name is already used', zh: '名称重复', ko: '이미 사용 중인 이름입니다' },
  cannotDeleteSelf: { en: 'You cannot delete yourself', zh: '不能删除自己', ko: '자기 자신은 삭제할 수 없습니다' },
  cannotDisableSelf: {
    en: 'You cannot disable yourself',
    zh: '不能禁用自己',
    ko: '자기 자신은 비활성화할 수 없습니다',
  },
  cannotBindOwnRole: {
    en: 'You cannot assign your own role',
    zh: '不能分配自己的角色',
    ko: '자신의 역할은 지정할 수 없습니다',
  },
  roleRequired: { en: 'At least one role is needed', zh: '至少需要一个角色', ko: '역할이 하나 이상 필요합니다' },
  roleInUse: {
    en: 'The role is held by {count} users; bind them to another role first',
    zh: '该角色仍有 {count} 个用户，请先为他们绑定其他角色',
    ko: '{count}명의 사용자가 이 역할을 가지고 있습니다. 먼저 다른 역할로 변경하세요',
  },
  builtinRole: {
    en: 'A built-in role cannot be deleted',
    zh: '内置角色不能删除',
    ko: '기본 역할은 삭제할 수 없습니다',
  },
  superAdminPermissions: {
    en: 'The super administrator always holds every permission',
    zh: '超级管理员始终拥有全部权限',
    ko: '최고 관리자는 항상 모든 권한을 가집니다',
  },
  superAdminRoleOnly: {
    en: 'Only a super administrator can give or change the super administrator role',
    zh: '只有超级管理员可以授予或修改超级管理员角色',
    ko: '최고 관리자 역할은 최고 관리자만 부여하거나 변경할 수 있습니다',
  },
  superAdminManagedBySuperAdmin: {
    en: 'Only a super administrator can manage a super administrator account',
    zh: '只有超级管理员可以管理超级管理员账号',
    ko: '최고 관리자 계정은 최고 관리자만 관리할 수 있습니다',
  },
  roleBeyondOwn: {
    en: 'You cannot give a role with permissions you do not hold yourself: {codes}',
    zh: '不能授予包含您自己没有的权限的角色：{codes}',
    ko: '본인에게 없는 권한을 가진 역할은 부여할 수 없습니다: {codes}',
  },
  roleManageBeyondOwn: {
    en: 'You cannot change a role with permissions you do not hold yourself: {codes}',
    zh: '不能修改包含您自己没有的权限的角色：{codes}',
    ko: '본인에게 없는 권한을 가진 역할은 변경할 수 없습니다: {codes}',
  },
  permissionBeyondOwn: {
    en: 'You cannot grant permissions you do not hold yourself: {codes}',
    zh: '不能授予您自己没有的权限：{codes}',
    ko: '본인에게 없는 권한은 부여할 수 없습니다: {codes}',
  },
  userBeyondOwn: {
    en: 'You cannot manage a user whose role has permissions you do not hold yourself: {codes}',
    zh: '不能管理其角色拥有您自己没有的权限的用户：{codes}',
    ko: '본인에게 없는 권한을 가진 역할의 사용자는 관리할 수 없습니다: {codes}',
  },
  userScopeBeyondOwn: {
    en: 'You cannot manage a user who sees sites outside your own data scope',
    zh: '不能管理可查看您数据权限以外站点的用户',
    ko: '본인의 데이터 범위 밖의 현장을 보는 사용자는 관리할 수 없습니다',
  },
  scopeBeyondOwn: {
    en: 'You cannot give a data scope beyond your own',
    zh: '不能授予超出您自己数据权限的范围',
    ko: '본인의 데이터 범위를 넘는 범위는 부여할 수 없습니다',
  },
  scopeNeedsDataPermission: {
    en: 'Setting the data scope needs the data permission (system:data)',
    zh: '设置数据权限需要数据权限（system:data）',
    ko: '데이터 범위를 설정하려면 데이터 권한(system:data)이 필요합니다',
  },
  permissionCodeSuperOnly: {
    en: "Only a super administrator can change a permission's code: it changes what every role holding it may do",
    zh: '只有超级管理员可以修改权限编码：它会改变所有拥有该权限的角色的能力',
    ko: '권한 코드는 최고 관리자만 변경할 수 있습니다. 이 권한을 가진 모든 역할의 권한이 바뀝니다',
  },
  permissionDeleteBeyondOwn: {
    en: 'You cannot delete permissions you do not hold yourself: {codes}',
    zh: '不能删除您自己没有的权限：{codes}',
    ko: '본인에게 없는 권한은 삭제할 수 없습니다: {codes}',
  },
  accountUnlocked: {
    en: 'The account is unlocked',
    zh: '账号已解锁',
    ko: '계정 잠금이 해제되었습니다',
  },
  roleParentCycle: {
    en: 'A role cannot be its own parent',
    zh: '角色不能是自己的上级',
    ko: '역할은 자신의 상위 역할이 될 수 없습니다',
  },
  permissionParentLevel: {
    en: 'A child permission must sit under a level 1 permission',
    zh: '子权限必须位于一级权限下',
    ko: '하위 권한은 1단계 권한 아래에 있어야 합니다',
  },
  userNotFound: { en: 'The user does not exist', zh: '用户不存在', ko: '사용자가 존재하지 않습니다' },
  roleNotFound: { en: 'The role does not exist', zh: '角色不存在', ko: '역할이 존재하지 않습니다' },
  permissionNotFound: { en: 'The permission does not exist', zh: '权限不存在', ko: '권한이 존재하지 않습니다' },
  platformNotFound: { en: 'The site does not exist', zh: '平台不存在', ko: '현장이 존재하지 않습니다' },
  noData: { en: 'No data', zh: '暂无数据', ko: '데이터가 없습니다' },
  rateLimited: {
    en: 'Too many requests, please slow down',
    zh: '请求过于频繁，请稍后再试',
    ko: '요청이 너무 많습니다. 잠시 후 다시 시도하세요',
  },
  // Equipment: monitor types, terminals, devices, persons, external files.
  monitorTypeNotFound: {
    en: 'The monitor type does not exist',
    zh: '监测类型不存在',
    ko: '모니터링 유형이 존재하지 않습니다',
  },
  monitorTypeInUse: {
    en: 'The site still has {count} devices of this monitor type; remove them first',
    zh: '该平台仍有 {count} 台此类型设备，请先移除',
    ko: '현장에 이 유형의 장치가 {count}대 있습니다. 먼저 제거하세요',
  },
  multiStatisticNotFound: { en: 'The statistic does not exist', zh: '统计不存在', ko: '통계가 존재하지 않습니다' },
  multiStatisticDevices: {
    en: 'Every device must be a device of the site',
    zh: '所有设备必须属于该平台',
    ko: '모든 장치는 해당 현장의 장치여야 합니다',
  },
  terminalNotFound: { en: 'The terminal does not exist', zh: '终端不存在', ko: '단말기가 존재하지 않습니다' },
  terminalOtherSite: {
    en: 'The terminal belongs to another site',
    zh: '终端属于其他平台',
    ko: '단말기가 다른 현장에 속해 있습니다',
  },
  terminalExists: { en: 'The terminal id already exists', zh: '终端编号已存在', ko: '이미 존재하는 단말기 ID입니다' },
  terminalParentInvalid: {
    en: 'The subordinate terminal must be another terminal of the same site, without a loop',
    zh: '上级终端必须是同一平台的其他终端，且不能循环',
    ko: '상위 단말기는 같은 현장의 다른 단말기여야 하며 순환할 수 없습니다',
  },
  terminalHasDevices: {
    en: 'Devices are still bound to the terminal: {names}. Unbind or delete them first',
    zh: '终端仍绑定设备：{names}，请先解绑或删除',
    ko: '단말기에 아직 장치가 연결되어 있습니다: {names}. 먼저 연결을 해제하거나 삭제하세요',
  },
  terminalKeyIssued: {
    en: 'A new key was issued: note it now, it is shown only once',
    zh: '已生成新密钥：请立即记录，仅显示一次',
    ko: '새 키가 발급되었습니다. 한 번만 표시되니 지금 기록하세요',
  },
  deviceNotFound: { en: 'The device does not exist', zh: '设备不存在', ko: '장치가 존재하지 않습니다' },
  deviceExists: {
    en: 'The device already exists (device number {number})',
    zh: '设备已存在（设备编号 {number}）',
    ko: '이미 존재하는 장치입니다 (장치 번호 {number})',
  },
  deviceNameExists: {
    en: 'The device name {name} is already used',
    zh: '设备名称 {name} 已被使用',
    ko: '장치 이름 {name}은(는) 이미 사용 중입니다',
  },
  deviceUnbound: { en: 'Unbinding success', zh: '解绑成功', ko: '연결 해제되었습니다' },
  gnssBaseNotFound: {
    en: 'The base station {number} is not a GNSS base station of this site',
    zh: '基准站 {number} 不是本平台的 GNSS 基准站',
    ko: '기준국 {number}은(는) 이 현장의 GNSS 기준국이 아닙니다',
  },
  importStarted: { en: 'Import started', zh: '导入已开始', ko: '가져오기를 시작했습니다' },
  importFileInvalid: {
    en: 'The file cannot be read as {format}',
    zh: '无法按 {format} 读取该文件',
    ko: '파일을 {format} 형식으로 읽을 수 없습니다',
  },
  importEmpty: { en: 'The file has no data rows', zh: '文件没有数据行', ko: '파일에 데이터 행이 없습니다' },
  importTooManyRows: {
    en: 'The file has more than {max} rows',
    zh: '文件超过 {max} 行',
    ko: '파일이 {max}행을 초과합니다',
  },
  importJobNotFound: {
    en: 'The import job does not exist',
    zh: '导入任务不存在',
    ko: '가져오기 작업이 존재하지 않습니다',
  },
  importDuplicateInFile: { en: 'repeats row {row}', zh: '与第 {row} 行重复', ko: '{row}행과 중복됩니다' },
  personNotFound: { en: 'The responsible person does not exist', zh: '负责人不存在', ko: '담당자가 존재하지 않습니다' },
  externalFileNotFound: {
    en: 'The external file link does not exist',
    zh: '外部文件链接不存在',
    ko: '외부 파일 링크가 존재하지 않습니다',
  },
  // Site registry: sites, administrative regions, enterprises, sections.
  regionNotLeaf: {
    en: 'Administrative region must be fully selected',
    zh: '行政区域必须选择完整',
    ko: '행정 구역을 끝까지 선택해야 합니다',
  },
  regionNotFound: {
    en: 'The administrative region does not exist',
    zh: '行政区域不存在',
    ko: '행정 구역이 존재하지 않습니다',
  },
  regionCodeExists: { en: 'The region code already exists', zh: '区域编码已存在', ko: '이미 존재하는 지역 코드입니다' },
  regionTooDeep: {
    en: 'Regions have at most 4 levels (country, province, city, county or district)',
    zh: '行政区域最多 4 级（国家、省、市、区县）',
    ko: '행정 구역은 최대 4단계입니다 (국가, 도, 시, 구·군)',
  },
  regionHasChildren: {
    en: 'The region has {count} subordinate regions: delete them first',
    zh: '该区域下还有 {count} 个下级区域，请先删除',
    ko: '하위 구역이 {count}개 있습니다. 먼저 삭제하세요',
  },
  regionHasPlatforms: {
    en: 'The region is used by {count} sites: move them to another region first',
    zh: '该区域仍被 {count} 个平台使用，请先将其移至其他区域',
    ko: '{count}개 현장이 이 구역을 사용 중입니다. 먼저 다른 구역으로 옮기세요',
  },
  enterpriseNotFound: { en: 'The enterprise does not exist', zh: '企业不存在', ko: '기업이 존재하지 않습니다' },
  enterpriseHasPlatforms: {
    en: 'The enterprise still has {count} bound sites: unbind them first',
    zh: '该企业仍关联 {count} 个平台，请先解除关联',
    ko: '이 기업에 연결된 현장이 {count}개 있습니다. 먼저 연결을 해제하세요',
  },
  enterpriseParentInvalid: {
    en: 'The higher group must be another enterprise of the same kind, and not one of its subordinates',
    zh: '上级集团必须是同类的其他企业，且不能是其下级',
    ko: '상위 그룹은 같은 종류의 다른 기업이어야 하며 하위 기업일 수 없습니다',
  },
  enterpriseWrongKind: {
    en: 'Tailings ponds bind tailings enterprises; other sites bind general enterprises',
    zh: '尾矿库只能关联尾矿企业，其他平台只能关联普通企业',
    ko: '광미댐은 광미 기업에만, 다른 현장은 일반 기업에만 연결할 수 있습니다',
  },
  enterpriseNotBound: {
    en: 'The site is not bound to this enterprise',
    zh: '该平台未关联此企业',
    ko: '현장이 이 기업에 연결되어 있지 않습니다',
  },
  platformHasDevices: {
    en: 'The site still has {count} devices: remove them first',
    zh: '该平台仍有 {count} 台设备，请先移除设备',
    ko: '현장에 장치가 {count}대 남아 있습니다. 먼저 장치를 제거하세요',
  },
  platformHasSections: {
    en: 'The site still has {count} sections: delete them first',
    zh: '该平台仍有 {count} 个断面，请先删除断面',
    ko: '현장에 단면이 {count}개 남아 있습니다. 먼저 단면을 삭제하세요',
  },
  sectionNotFound: { en: 'The section does not exist', zh: '断面不存在', ko: '단면이 존재하지 않습니다' },
  sectionKindNotAllowed: {
    en: 'Sections are kept only for reservoirs, rivers, hazard points and slopes',
    zh: '只有水库、河道、隐患点和边坡可以设置断面',
    ko: '단면은 저수지, 하천, 위험 지점, 사면에만 둘 수 있습니다',
  },
  upstreamCoordsTooFew: {
    en: 'At least 3 upstream-face coordinates must be set',
    zh: '至少需要设置 3 个迎水面坐标',
    ko: '상류면 좌표를 3개 이상 설정해야 합니다',
  },
  upstreamCoordsFirst: {
    en: 'Set the upstream (dam section) coordinates first',
    zh: '请先设置迎水面（坝体断面）坐标',
    ko: '먼저 상류면(댐 단면) 좌표를 설정하세요',
  },
  waterLevelDeviceFirst: {
    en: 'Add a water-level device first',
    zh: '请先添加水位设备',
    ko: '먼저 수위 장치를 추가하세요',
  },
  waterLevelRequired: { en: 'Enter the water level', zh: '请输入水位', ko: '수위를 입력하세요' },
  waterLevelTooLow: {
    en: 'The water level must not be lower than the bottom elevation ({min} m)',
    zh: '水位不能低于底部高程（{min} 米）',
    ko: '수위는 바닥 표고({min} m)보다 낮을 수 없습니다',
  },
  waterLevelTooHigh: {
    en: 'The water level must not be higher than the highest upstream coordinate ({max} m)',
    zh: '水位不能高于迎水面最高点（{max} 米）',
    ko: '수위는 상류면 최고점({max} m)보다 높을 수 없습니다',
  },
  capacityNotRising: {
    en: 'Capacity table row {index}: each row needs a higher water level, and no smaller volume, than the row before',
    zh: '库容表第 {index} 行：水位须高于上一行，库容不得小于上一行',
    ko: '저수 용량표 {index}행: 수위는 앞 행보다 높고 용량은 앞 행보다 작지 않아야 합니다',
  },
  capacityIndexRepeated: {
    en: 'Capacity table row number {index} appears twice',
    zh: '库容表序号 {index} 重复',
    ko: '저수 용량표 행 번호 {index}가 중복됩니다',
  },
  sectionDeviceNotOnSite: {
    en: "Device {id} is not a device of this section's site",
    zh: '设备 {id} 不属于该断面所在平台',
    ko: '장치 {id}은(는) 이 단면이 속한 현장의 장치가 아닙니다',
  },
  heartWallBindingNotFound: {
    en: 'The core-wall binding does not exist',
    zh: '心墙绑定不存在',
    ko: '심벽 연결이 존재하지 않습니다',
  },
  riverWaterRiverOnly: {
    en: 'River water elevations are kept only for sections of rivers',
    zh: '只有河道断面可以录入河道水位',
    ko: '하천 수위는 하천 단면에만 기록할 수 있습니다',
  },
  riverWaterTimeExists: {
    en: 'The section already has a water elevation at this time',
    zh: '该断面在此时间已有水位记录',
    ko: '이 단면에 같은 시각의 수위 기록이 이미 있습니다',
  },
  riverWaterNotFound: {
    en: 'The water elevation record does not exist',
    zh: '水位记录不存在',
    ko: '수위 기록이 존재하지 않습니다',
  },
  // Files: uploads, downloads, file documents.
  uploaded: { en: 'Uploaded successfully', zh: '上传成功', ko: '업로드되었습니다' },
  uploadFailed: { en: 'Upload failed', zh: '上传失败', ko: '업로드에 실패했습니다' },
  uploadNotMultipart: {
    en: 'Send the files as multipart/form-data',
    zh: '请以 multipart/form-data 方式上传文件',
    ko: '파일은 multipart/form-data 형식으로 보내야 합니다',
  },
  uploadNoFile: { en: 'Please choose a file to upload', zh: '请选择要上传的文件', ko: '업로드할 파일을 선택하세요' },
  // Maps and areas (issue 21).
  mapTileSetBadFile: {
    en: 'The file is not a tile set: a .pmtiles file, an .mbtiles file or a .zip of z/x/y image tiles is expected',
    zh: '文件不是瓦片集：应为 .pmtiles、.mbtiles 文件或包含 z/x/y 图片瓦片的 .zip',
    ko: '타일 세트 파일이 아닙니다: .pmtiles, .mbtiles 또는 z/x/y 이미지 타일의 .zip 파일이어야 합니다',
  },
  mapTileSetEmpty: { en: 'The tile set holds no tiles', zh: '瓦片集中没有瓦片', ko: '타일 세트에 타일이 없습니다' },
  mapTileSetInUse: {
    en: 'The map configuration uses this tile set: choose another one first',
    zh: '地图配置正在使用该瓦片集，请先选择其他瓦片集',
    ko: '지도 설정이 이 타일 세트를 사용 중입니다. 먼저 다른 세트를 선택하세요',
  },
  mapTileSetMissing: {
    en: 'An offline map needs an imported tile set',
    zh: '离线地图需要选择已导入的瓦片集',
    ko: '오프라인 지도에는 가져온 타일 세트가 필요합니다',
  },
  mapTileSetProvider: {
    en: 'The tile set holds {provider} tiles; the map type is {type}',
    zh: '该瓦片集为 {provider} 瓦片，地图类型为 {type}',
    ko: '타일 세트는 {provider} 타일이고 지도 유형은 {type}입니다',
  },
  mapTiandituNoKey: {
    en: 'Tianditu online needs its key (token)',
    zh: '天地图在线模式需要填写密钥（token）',
    ko: '톈디투 온라인에는 키(token)가 필요합니다',
  },
  mapLayerType: {
    en: 'Expected a .kml, .kmz, .geojson or .json file',
    zh: '应为 .kml、.kmz、.geojson 或 .json 文件',
    ko: '.kml, .kmz, .geojson 또는 .json 파일이어야 합니다',
  },
  mapLayerBadFile: {
    en: 'The file is not valid {format}: {reason}',
    zh: '文件不是有效的 {format}：{reason}',
    ko: '올바른 {format} 파일이 아닙니다: {reason}',
  },
  mapLayerNoFeatures: {
    en: 'The file has no places, lines or polygons',
    zh: '文件中没有点、线或面',
    ko: '파일에 지점, 선 또는 다각형이 없습니다',
  },
  mapLayerTooMany: {
    en: 'The file has more than {max} features',
    zh: '文件中的要素超过 {max} 个',
    ko: '파일의 요소가 {max}개를 넘습니다',
  },
  mapLayerCoordinates: {
    en: 'The file has a coordinate out of range (latitude -90 to 90, longitude -180 to 180)',
    zh: '文件中有超出范围的坐标（纬度 -90 至 90，经度 -180 至 180）',
    ko: '파일에 범위를 벗어난 좌표가 있습니다 (위도 -90~90, 경도 -180~180)',
  },
  areaOutOfRange: {
    en: 'A coordinate is out of range (latitude -90 to 90, longitude -180 to 180)',
    zh: '坐标超出范围（纬度 -90 至 90，经度 -180 至 180）',
    ko: '좌표가 범위를 벗어났습니다 (위도 -90~90, 경도 -180~180)',
  },
  areaSelfCrossing: {
    en: 'The polygon crosses itself: draw its outline without crossings',
    zh: '多边形自相交：请绘制不交叉的边界',
    ko: '다각형이 스스로 교차합니다. 교차하지 않는 경계를 그리세요',
  },
  areaTooFewPoints: {
    en: 'An area needs at least 3 distinct points',
    zh: '区域至少需要 3 个不同的点',
    ko: '영역에는 서로 다른 점이 3개 이상 필요합니다',
  },
  areaTooManyPoints: {
    en: 'An area may have at most {max} points',
    zh: '区域最多 {max} 个点',
    ko: '영역의 점은 최대 {max}개입니다',
  },
  areaNoArea: { en: 'The polygon has no area', zh: '多边形面积为零', ko: '다각형의 면적이 없습니다' },
  areaNoPolygon: { en: 'The file has no polygon', zh: '文件中没有多边形', ko: '파일에 다각형이 없습니다' },
  areaRuleInvalid: {
    en: 'A rule step must make a level higher than the one it counts',
    zh: '规则的每一步必须升到高于所统计等级的等级',
    ko: '규칙 단계는 세는 등급보다 높은 등급을 만들어야 합니다',
  },
  areaNameTaken: {
    en: 'The site already has an area of this name',
    zh: '该站点已有同名区域',
    ko: '이 현장에 같은 이름의 영역이 이미 있습니다',
  },
  uploadTooMany: {
    en: 'You can select at most {max} files',
    zh: '最多只能选择 {max} 个文件',
    ko: '파일은 최대 {max}개까지 선택할 수 있습니다',
  },
  uploadSinglePicture: {
    en: 'Only a single picture can be uploaded',
    zh: '只能上传一张图片',
    ko: '사진은 한 장만 업로드할 수 있습니다',
  },
  uploadEmptyFile: { en: 'The file {name} is empty', zh: '文件 {name} 为空', ko: '파일 {name}이(가) 비어 있습니다' },
  uploadPictureType: {
    en: '{name}: pictures must be jpg, png, gif or bmp images',
    zh: '{name}：图片只能是 jpg、png、gif 或 bmp 格式',
    ko: '{name}: 사진은 jpg, png, gif, bmp 형식만 가능합니다',
  },
  uploadDocumentType: {
    en: '{name}: files must be Word or PDF documents (doc, docx, pdf)',
    zh: '{name}：文件只能是 Word 或 PDF 格式（doc、docx、pdf）',
    ko: '{name}: 파일은 Word 또는 PDF 문서(doc, docx, pdf)만 가능합니다',
  },
  uploadAttachmentType: {
    en: '{name}: attachments must be Word, PDF, jpg or png files',
    zh: '{name}：附件只能是 Word、PDF、jpg 或 png 格式',
    ko: '{name}: 첨부 파일은 Word, PDF, jpg, png 형식만 가능합니다',
  },
  uploadExtensionMismatch: {
    en: '{name}: the content is a {type} file, which does not match the file extension',
    zh: '{name}：文件内容为 {type} 格式，与扩展名不符',
    ko: '{name}: 파일 내용이 {type} 형식이어서 확장자와 일치하지 않습니다',
  },
  uploadActiveContent: {
    en: '{name}: the file contains active content (script, macro or embedded program) and was refused',
    zh: '{name}：文件包含活动内容（脚本、宏或嵌入的程序），已被拒绝',
    ko: '{name}: 파일에 활성 콘텐츠(스크립트, 매크로 또는 포함된 프로그램)가 있어 거부되었습니다',
  },
  uploadMalformed: {
    en: '{name}: the file is damaged or not a valid {type} file',
    zh: '{name}：文件已损坏或不是有效的 {type} 文件',
    ko: '{name}: 파일이 손상되었거나 올바른 {type} 파일이 아닙니다',
  },
  fileTooLarge: {
    en: 'File too large: pictures may be at most {picture} MB and documents {document} MB',
    zh: '文件过大：图片最大 {picture} MB，文档最大 {document} MB',
    ko: '파일이 너무 큽니다: 사진은 최대 {picture}MB, 문서는 최대 {document}MB입니다',
  },
  fileNotFound: { en: 'The file does not exist', zh: '文件不存在', ko: '파일이 존재하지 않습니다' },
  documentTooManyKeys: {
    en: 'A document has at most {max} fields',
    zh: '文档最多 {max} 个字段',
    ko: '문서의 필드는 최대 {max}개입니다',
  },
  // Information templates.
  templateNotFound: { en: 'The template does not exist', zh: '模板不存在', ko: '템플릿이 존재하지 않습니다' },
  templateNameRequired: {
    en: 'The template name cannot be empty',
    zh: '模板名称不能为空',
    ko: '템플릿 이름은 비워 둘 수 없습니다',
  },
  directoryNameRequired: {
    en: 'The directory name cannot be empty',
    zh: '目录名称不能为空',
    ko: '디렉터리 이름은 비워 둘 수 없습니다',
  },
  fieldNameRequired: {
    en: 'The field name cannot be empty',
    zh: '字段名称不能为空',
    ko: '필드 이름은 비워 둘 수 없습니다',
  },
  templateCodeExists: {
    en: 'The template code already exists',
    zh: '模板编码已存在',
    ko: '이미 존재하는 템플릿 코드입니다',
  },
  templateFieldExists: {
    en: 'The field {name} already exists in the template',
    zh: '模板中已存在字段 {name}',
    ko: '템플릿에 이미 {name} 필드가 있습니다',
  },
  templateFieldNotFound: {
    en: 'The template has no field {name}',
    zh: '模板中没有字段 {name}',
    ko: '템플릿에 {name} 필드가 없습니다',
  },
  templateFieldValue: {
    en: 'The value of field {name} does not suit its kind ({kind})',
    zh: '字段 {name} 的值与其类型（{kind}）不符',
    ko: '{name} 필드의 값이 필드 종류({kind})에 맞지 않습니다',
  },
  templateFieldFile: {
    en: 'Field {name}: the file {file} does not exist',
    zh: '字段 {name}：文件 {file} 不存在',
    ko: '{name} 필드: 파일 {file}이(가) 존재하지 않습니다',
  },
  templateFieldImage: {
    en: 'Field {name} takes pictures only; {file} is not a picture',
    zh: '字段 {name} 只接受图片，{file} 不是图片',
    ko: '{name} 필드에는 사진만 넣을 수 있습니다. {file}은(는) 사진이 아닙니다',
  },
  templateInUse: {
    en: 'The template is bound to {count} owners: unbind it first',
    zh: '该模板已绑定 {count} 个对象，请先解除绑定',
    ko: '템플릿이 {count}개 대상에 연결되어 있습니다. 먼저 연결을 해제하세요',
  },
  templateNotBound: {
    en: 'No template linked: the template is not bound to {owner}',
    zh: '未关联模板：该模板未绑定到 {owner}',
    ko: '연결된 템플릿이 없습니다: 템플릿이 {owner}에 연결되어 있지 않습니다',
  },
  unbound: { en: 'Unbinding success', zh: '解绑成功', ko: '연결 해제되었습니다' },
  // Message board.
  contentRequired: { en: 'The content cannot be empty', zh: '内容不能为空', ko: '내용은 비워 둘 수 없습니다' },
  alreadyExists: {
    en: 'It already exists (another request may have just created it)',
    zh: '已存在（可能刚被另一个请求创建）',
    ko: '이미 존재합니다 (다른 요청이 방금 만들었을 수 있습니다)',
  },
  valueOutOfRange: {
    en: 'A value is malformed or out of range',
    zh: '某个值格式错误或超出范围',
    ko: '값의 형식이 잘못되었거나 범위를 벗어났습니다',
  },
  commentNotFound: { en: 'The comment does not exist', zh: '评论不存在', ko: '댓글이 존재하지 않습니다' },
  replyNotFound: { en: 'The reply does not exist', zh: '回复不存在', ko: '답글이 존재하지 않습니다' },
  notAuthor: {
    en: 'Only the author or a super administrator can delete it',
    zh: '只有作者或超级管理员可以删除',
    ko: '작성자 또는 최고 관리자만 삭제할 수 있습니다',
  },
  // Device ingest (the answer's data carries the reason code and detail).
  ingestStored: {
    en: '{stored} stored, {duplicates} already stored',
    zh: '已保存 {stored} 条，{duplicates} 条此前已保存',
    ko: '{stored}건 저장, {duplicates}건은 이미 저장됨',
  },
  ingestBadPayload: {
    en: 'The readings were refused: {detail}',
    zh: '数据被拒绝：{detail}',
    ko: '측정값이 거부되었습니다: {detail}',
  },
  ingestBadCredentials: {
    en: 'Unknown terminal or wrong key',
    zh: '终端不存在或密钥错误',
    ko: '알 수 없는 단말기이거나 키가 틀렸습니다',
  },
  ingestNotYourDevice: {
    en: 'The terminal may not send for device {detail}',
    zh: '该终端无权发送设备 {detail} 的数据',
    ko: '이 단말기는 {detail} 장치의 데이터를 보낼 수 없습니다',
  },
  ingestRateLimited: {
    en: 'Too many readings for this device; try again in {seconds} s',
    zh: '该设备数据过多，请 {seconds} 秒后重试',
    ko: '이 장치의 측정값이 너무 많습니다. {seconds}초 후 다시 시도하세요',
  },
  ingestOverloaded: {
    en: 'The server is busy; try again in {seconds} s',
    zh: '服务器繁忙，请 {seconds} 秒后重试',
    ko: '서버가 바쁩니다. {seconds}초 후 다시 시도하세요',
  },
  forecastTooShort: {
    en: 'The series has {count} values; at least sampleNum = {sampleNum} are needed',
    zh: '数据只有 {count} 个，至少需要 sampleNum = {sampleNum} 个',
    ko: '데이터가 {count}개뿐입니다. 최소 sampleNum = {sampleNum}개가 필요합니다',
  },
  forecastTypeMismatch: {
    en: 'type {type} does not match this call (expected {expected})',
    zh: 'type {type} 与该接口不符（应为 {expected}）',
    ko: 'type {type}이(가) 이 호출과 맞지 않습니다 ({expected}이어야 함)',
  },
  forecastShifted: {
    en: 'The grey model needs positive values: {shift} was added before fitting and subtracted from the results',
    zh: '灰色模型需要正值：拟合前已加上 {shift}，结果已减回',
    ko: '회색 모델은 양수 값이 필요합니다: 적합 전에 {shift}을(를) 더하고 결과에서 뺐습니다',
  },
  forecastClassRatio: {
    en: 'The class-ratio (smoothness) check failed: the grey model may be unreliable for this series',
    zh: '级比检验未通过：灰色模型对该序列可能不可靠',
    ko: '급비(평활성) 검정에 실패했습니다: 이 계열에는 회색 모델이 신뢰하기 어려울 수 있습니다',
  },
  forecastDiverged: {
    en: 'The model diverges on this series; try fewer steps or the other method',
    zh: '该序列模型发散；请减少预测步数或换用另一方法',
    ko: '이 계열에서 모델이 발산합니다. 예측 단계를 줄이거나 다른 방법을 사용하세요',
  },
  ivLengthMismatch: {
    en: 'times has {times} values but values has {values}; they must match',
    zh: 'times 有 {times} 个值而 values 有 {values} 个，两者必须相同',
    ko: 'times는 {times}개, values는 {values}개입니다. 개수가 같아야 합니다',
  },
  ivTooFew: {
    en: 'At least {min} points are needed (got {count})',
    zh: '至少需要 {min} 个点（收到 {count} 个）',
    ko: '최소 {min}개의 점이 필요합니다 ({count}개 받음)',
  },
  ivTimesOrder: {
    en: 'times must be strictly increasing (item {index})',
    zh: 'times 必须严格递增（第 {index} 项）',
    ko: 'times는 엄격히 증가해야 합니다 ({index}번째 항목)',
  },
  ivNotMoving: {
    en: 'Not applicable: the displacement is not increasing',
    zh: '不适用：位移没有增加',
    ko: '적용 불가: 변위가 증가하지 않습니다',
  },
  ivNotAccelerating: {
    en: 'Not applicable: the movement is not accelerating (inverse velocity is not decreasing)',
    zh: '不适用：变形未加速（速度倒数未减小）',
    ko: '적용 불가: 변형이 가속되지 않습니다 (역속도가 감소하지 않음)',
  },
  ivPoorFit: {
    en: 'Not applicable: the inverse velocity does not follow a line (R² < 0.5)',
    zh: '不适用：速度倒数不呈线性（R² < 0.5）',
    ko: '적용 불가: 역속도가 직선을 따르지 않습니다 (R² < 0.5)',
  },
  positionMissing: {
    en: 'Give the schematic position (sketchX, sketchY) or the map position (lon, lat)',
    zh: '请提供示意图位置（sketchX、sketchY）或地图位置（lon、lat）',
    ko: '도면 위치(sketchX, sketchY) 또는 지도 위치(lon, lat)를 입력하세요',
  },
  positionSketchPair: {
    en: 'The schematic position needs both sketchX and sketchY',
    zh: '示意图位置需要同时提供 sketchX 和 sketchY',
    ko: '도면 위치에는 sketchX와 sketchY가 모두 필요합니다',
  },
  positionMapPair: {
    en: 'The map position needs both lon and lat',
    zh: '地图位置需要同时提供经度和纬度',
    ko: '지도 위치에는 경도와 위도가 모두 필요합니다',
  },
  positionClearAlone: {
    en: 'Clearing a position cannot be combined with setting one',
    zh: '清除位置时不能同时设置位置',
    ko: '위치 해제와 위치 설정을 함께 할 수 없습니다',
  },
  // moduleData: the monitoring query API.
  badTimeZone: {
    en: '"{timeZone}" is not a time zone: give an IANA name such as Asia/Shanghai, Europe/Berlin or UTC',
    zh: '“{timeZone}”不是有效的时区：请使用 IANA 名称，例如 Asia/Shanghai、Europe/Berlin 或 UTC',
    ko: '"{timeZone}"은(는) 시간대가 아닙니다: Asia/Shanghai, Europe/Berlin, UTC 같은 IANA 이름을 입력하세요',
  },
  badTimeRange: {
    en: 'The time range is invalid: give a start time before the end time',
    zh: '时间范围无效：开始时间必须早于结束时间',
    ko: '기간이 올바르지 않습니다: 시작 시간은 종료 시간보다 빨라야 합니다',
  },
  reportPeriodTooLong: {
    en: 'The period is too long: a report covers at most {max} days',
    zh: '时间范围过长：报表最多覆盖 {max} 天',
    ko: '기간이 너무 깁니다: 보고서는 최대 {max}일입니다',
  },
  reservoirOnly: {
    en: 'This is kept only for reservoirs',
    zh: '仅适用于水库',
    ko: '저수지에만 해당합니다',
  },
  waterLevelRowInvalid: {
    en: 'Water level {row}: give a valid time and an elevation between -450 and 9000 m; nothing was added',
    zh: '第 {row} 条水位：请填写有效的时间和 -450 至 9000 米之间的高程；未添加任何数据',
    ko: '{row}번째 수위: 올바른 시각과 -450~9000 m 사이의 표고를 입력하세요; 아무것도 추가되지 않았습니다',
  },
  waterLevelRowDuplicate: {
    en: 'Water level {row} repeats an earlier time of the list; nothing was added',
    zh: '第 {row} 条水位与列表中前面的时间重复；未添加任何数据',
    ko: '{row}번째 수위의 시각이 목록의 앞 항목과 같습니다; 아무것도 추가되지 않았습니다',
  },
  tooManyReadings: {
    en: 'Too many readings in this range ({count}, at most {max}): choose a shorter range or an aggregation',
    zh: '该时间范围内数据过多（{count} 条，最多 {max} 条）：请缩短时间范围或选择聚合方式',
    ko: '이 기간의 데이터가 너무 많습니다 ({count}건, 최대 {max}건): 기간을 줄이거나 집계 방식을 선택하세요',
  },
  tooManyDevices: {
    en: 'At most {max} devices can be compared',
    zh: '最多只能对比 {max} 个设备',
    ko: '최대 {max}개의 장치만 비교할 수 있습니다',
  },
  quantityUnknown: {
    en: 'This device does not measure {quantity}',
    zh: '该设备没有监测量 {quantity}',
    ko: '이 장치는 {quantity}을(를) 측정하지 않습니다',
  },
  readingNotFound: {
    en: 'The device has no reading at this time',
    zh: '该设备在此时间没有数据',
    ko: '이 시간에 장치의 데이터가 없습니다',
  },
  // tsManagement: tailings supervision records.
  tsRecordNotFound: {
    en: 'The supervision record does not exist',
    zh: '监管记录不存在',
    ko: '감독 기록이 존재하지 않습니다',
  },
  tsSiteNotTailings: {
    en: 'Supervision records are kept only for tailings sites',
    zh: '只有尾矿库可以添加监管记录',
    ko: '감독 기록은 광미 댐 현장에만 둘 수 있습니다',
  },
  tsInspectionInFuture: {
    en: 'The inspection date cannot be in the future',
    zh: '检查日期不能晚于今天',
    ko: '점검일은 미래일 수 없습니다',
  },
  tsItemNoteRequired: {
    en: 'Describe the problem of every item marked as a problem',
    zh: '请填写每个存在问题的检查项的问题说明',
    ko: '문제로 표시한 모든 항목에 문제 내용을 입력하세요',
  },
  tsRequirementRequired: {
    en: 'A problem was found: enter the rectification content',
    zh: '存在问题，请填写整改内容',
    ko: '문제가 발견되었습니다. 시정 내용을 입력하세요',
  },
  tsDeadlineRequired: {
    en: 'A problem was found: enter the rectification deadline',
    zh: '存在问题，请填写整改期限',
    ko: '문제가 발견되었습니다. 시정 기한을 입력하세요',
  },
  tsDeadlineBeforeInspection: {
    en: 'The rectification deadline cannot be before the inspection date',
    zh: '整改期限不能早于检查日期',
    ko: '시정 기한은 점검일보다 이를 수 없습니다',
  },
  tsCompletedDateRequired: {
    en: 'Enter the completion date of the rectification',
    zh: '请填写整改完成日期',
    ko: '시정 완료일을 입력하세요',
  },
  tsCompletedBeforeInspection: {
    en: 'The completion date cannot be before the inspection date',
    zh: '完成日期不能早于检查日期',
    ko: '완료일은 점검일보다 이를 수 없습니다',
  },
  tsCompletedInFuture: {
    en: 'The completion date cannot be in the future',
    zh: '完成日期不能晚于今天',
    ko: '완료일은 미래일 수 없습니다',
  },
  tsAlreadyRectified: {
    en: 'The rectification of this record is already completed',
    zh: '该记录已完成整改',
    ko: '이 기록의 시정은 이미 완료되었습니다',
  },
  tsTooManyAttachments: {
    en: 'At most {max} documents',
    zh: '文件最多 {max} 个',
    ko: '문서는 최대 {max}개입니다',
  },
  tsTooManyResultAttachments: {
    en: 'At most {max} result documents',
    zh: '结果文件最多 {max} 个',
    ko: '결과 문서는 최대 {max}개입니다',
  },
  tsProblemTypeRequired: {
    en: 'A problem was found: choose the problem type',
    zh: '存在问题，请选择问题类型',
    ko: '문제가 발견되었습니다. 문제 유형을 선택하세요',
  },
  tsPersonNotChoosable: {
    en: 'The responsible person is not a responsible person of this site',
    zh: '该负责人不是本尾矿库的负责人',
    ko: '이 담당자는 이 현장의 담당자가 아닙니다',
  },
  tsAttachmentNotFound: {
    en: 'Attachment {file} does not exist',
    zh: '附件 {file} 不存在',
    ko: '첨부 파일 {file}이(가) 존재하지 않습니다',
  },
  tsAttachmentOtherSite: {
    en: 'Attachment {name} belongs to another site',
    zh: '附件 {name} 属于其他平台',
    ko: '첨부 파일 {name}은(는) 다른 현장의 파일입니다',
  },
  // archives: safety supervision (inspections, plans, security files) and its reminders.
  archivesInspectionNotFound: {
    en: 'The inspection does not exist',
    zh: '检查记录不存在',
    ko: '점검 기록이 존재하지 않습니다',
  },
  archivesInspectionInFuture: {
    en: 'The inspection date cannot be in the future',
    zh: '检查日期不能晚于今天',
    ko: '점검일은 미래일 수 없습니다',
  },
  archivesItemNoteRequired: {
    en: 'Item "{item}" has a problem: please say what was found',
    zh: '检查项“{item}”有问题，请填写发现的情况',
    ko: '점검 항목 "{item}"에 문제가 있습니다. 발견 내용을 입력하세요',
  },
  archivesRequirementRequired: {
    en: 'A problem was found: please enter the rectification required',
    zh: '发现了问题，请填写整改要求',
    ko: '문제가 발견되었습니다. 시정 요구 사항을 입력하세요',
  },
  archivesDeadlineRequired: {
    en: 'A problem was found: please enter the rectification deadline',
    zh: '发现了问题，请填写整改期限',
    ko: '문제가 발견되었습니다. 시정 기한을 입력하세요',
  },
  archivesDeadlineBeforeInspection: {
    en: 'The rectification deadline cannot be before the inspection date',
    zh: '整改期限不能早于检查日期',
    ko: '시정 기한은 점검일보다 이를 수 없습니다',
  },
  archivesCompletedDateRequired: {
    en: 'Please enter the completion date',
    zh: '请填写完成日期',
    ko: '완료일을 입력하세요',
  },
  archivesCompletedBeforeInspection: {
    en: 'The completion date cannot be before the inspection date',
    zh: '完成日期不能早于检查日期',
    ko: '완료일은 점검일보다 이를 수 없습니다',
  },
  archivesCompletedInFuture: {
    en: 'The completion date cannot be in the future',
    zh: '完成日期不能晚于今天',
    ko: '완료일은 미래일 수 없습니다',
  },
  archivesAlreadyRectified: {
    en: 'The rectification is already completed',
    zh: '整改已完成',
    ko: '시정이 이미 완료되었습니다',
  },
  archivesTooManyPhotos: {
    en: 'A problem can have at most {max} photos',
    zh: '每个问题最多 {max} 张照片',
    ko: '문제 하나에 사진은 최대 {max}장입니다',
  },
  archivesTooManyFiles: {
    en: 'At most {max} files can be attached',
    zh: '最多只能附加 {max} 个文件',
    ko: '파일은 최대 {max}개까지 첨부할 수 있습니다',
  },
  archivesFileNotFound: {
    en: 'File {file} does not exist, please upload it again',
    zh: '文件 {file} 不存在，请重新上传',
    ko: '파일 {file}이(가) 없습니다. 다시 업로드하세요',
  },
  archivesFileOtherSite: {
    en: 'File {name} was uploaded for another site',
    zh: '文件 {name} 是为其他站点上传的',
    ko: '파일 {name}은(는) 다른 현장용으로 업로드되었습니다',
  },
  archivesPhotoNotImage: {
    en: '{name} is not a photo: problem photos must be jpg, png, gif or bmp images',
    zh: '{name} 不是照片：问题照片须为 jpg、png、gif 或 bmp 图片',
    ko: '{name}은(는) 사진이 아닙니다. 문제 사진은 jpg, png, gif, bmp 이미지여야 합니다',
  },
  archivesPlanNotFound: {
    en: 'The plan does not exist',
    zh: '预案不存在',
    ko: '계획이 존재하지 않습니다',
  },
  archivesPlanVersionNotFound: {
    en: 'The plan version does not exist',
    zh: '预案版本不存在',
    ko: '계획 버전이 존재하지 않습니다',
  },
  archivesValidToBeforeFrom: {
    en: 'The end of the validity period cannot be before its start',
    zh: '有效期结束日期不能早于开始日期',
    ko: '유효 기간 종료일은 시작일보다 이를 수 없습니다',
  },
  archivesVersionApproved: {
    en: 'Version {version} was already approved by {name}',
    zh: '版本 {version} 已由 {name} 审批',
    ko: '버전 {version}은(는) 이미 {name}님이 승인했습니다',
  },
  archivesVersionSuperseded: {
    en: 'A newer version is approved already: version {version} can no longer be approved',
    zh: '已有更新的版本获批，版本 {version} 不能再审批',
    ko: '더 새로운 버전이 이미 승인되어 버전 {version}은(는) 승인할 수 없습니다',
  },
  archivesDrillNotFound: {
    en: 'The drill record does not exist',
    zh: '演练记录不存在',
    ko: '훈련 기록이 존재하지 않습니다',
  },
  archivesDrillInFuture: {
    en: 'The drill date cannot be in the future',
    zh: '演练日期不能晚于今天',
    ko: '훈련일은 미래일 수 없습니다',
  },
  archivesContactNotFound: {
    en: 'The contact does not exist or has no email address',
    zh: '联系人不存在或没有邮箱',
    ko: '연락처가 없거나 이메일 주소가 없습니다',
  },
  archivesFolderNotFound: {
    en: 'The folder does not exist',
    zh: '文件夹不存在',
    ko: '폴더가 존재하지 않습니다',
  },
  archivesFolderExists: {
    en: 'A folder named {name} exists here already',
    zh: '此处已有名为 {name} 的文件夹',
    ko: '이곳에 {name} 폴더가 이미 있습니다',
  },
  archivesFolderNotEmpty: {
    en: 'The folder is not empty: move or delete its files and folders first',
    zh: '文件夹不为空，请先移动或删除其中的文件和文件夹',
    ko: '폴더가 비어 있지 않습니다. 먼저 파일과 폴더를 옮기거나 삭제하세요',
  },
  archivesDocumentNotFound: {
    en: 'The security file does not exist',
    zh: '安全文件不存在',
    ko: '안전 파일이 존재하지 않습니다',
  },
  archivesExpiryRequired: {
    en: 'A certificate or licence needs its expiry date',
    zh: '证书或许可证须填写到期日期',
    ko: '인증서나 허가증에는 만료일이 필요합니다',
  },
  archivesPlanReminderSubject: {
    en: '[Plan expiring] {site}: {plan}',
    zh: '【预案即将到期】{site}：{plan}',
    ko: '[계획 만료 예정] {site}: {plan}',
  },
  archivesPlanReminderBody: {
    en: 'The {kind} plan "{plan}" of {site} (version {version}) is valid until {date}. Please revise it and have the new version approved.',
    zh: '{site}的{kind}“{plan}”（版本 {version}）有效期至 {date}，请及时修订并审批新版本。',
    ko: '{site}의 {kind} "{plan}"(버전 {version})은(는) {date}까지 유효합니다. 개정하여 새 버전을 승인받으세요.',
  },
  archivesDocumentReminderSubject: {
    en: '[Certificate expiring] {site}: {name}',
    zh: '【证书即将到期】{site}：{name}',
    ko: '[인증서 만료 예정] {site}: {name}',
  },
  archivesDocumentReminderBody: {
    en: 'The {type} "{name}" of {site} expires on {date}. Please renew it and upload the new version.',
    zh: '{site}的{type}“{name}”将于 {date} 到期，请及时更新并上传新版本。',
    ko: '{site}의 {type} "{name}"은(는) {date}에 만료됩니다. 갱신하여 새 버전을 업로드하세요.',
  },
  archivesKindEmergency: {
    en: 'emergency plan',
    zh: '应急预案',
    ko: '비상 계획',
  },
  archivesKindPrevention: {
    en: 'prevention plan',
    zh: '防治预案',
    ko: '예방 계획',
  },
  archivesTypeCertificate: {
    en: 'certificate',
    zh: '证书',
    ko: '인증서',
  },
  archivesTypeDocument: { en: 'document', zh: '文件', ko: '문서' },
  archivesTypeLicence: {
    en: 'licence',
    zh: '许可证',
    ko: '허가증',
  },
  // alertNotifications
  notifyContactNotFound: {
    en: 'The alert contact does not exist',
    zh: '预警联系人不存在',
    ko: '경보 연락처가 존재하지 않습니다',
  },
  notifyContactNeedsAddress: {
    en: 'Enter a phone number or an email address for the contact',
    zh: '请填写联系人的手机号码或邮箱',
    ko: '연락처의 전화번호 또는 이메일을 입력하세요',
  },
  notifyGroupNotFound: {
    en: 'The contact group does not exist',
    zh: '联系人分组不存在',
    ko: '연락처 그룹이 존재하지 않습니다',
  },
  notifyGroupNameTaken: {
    en: 'A contact group with this name already exists',
    zh: '联系人分组名称重复',
    ko: '같은 이름의 연락처 그룹이 이미 있습니다',
  },
  notifyGroupNeedsSite: {
    en: 'Choose at least one site for the contact group',
    zh: '请为联系人分组选择至少一个平台',
    ko: '연락처 그룹에 현장을 하나 이상 선택하세요',
  },
  notifyTemplateNotFound: {
    en: 'The alert template does not exist',
    zh: '预警模板不存在',
    ko: '경보 템플릿이 존재하지 않습니다',
  },
  notifyTemplateNameTaken: {
    en: 'An alert template with this name already exists',
    zh: '预警模板名称重复',
    ko: '같은 이름의 경보 템플릿이 이미 있습니다',
  },
  notifyTemplateNeedsContent: {
    en: 'Enter the template content in at least one language',
    zh: '请至少填写一种语言的模板内容',
    ko: '템플릿 내용을 하나 이상의 언어로 입력하세요',
  },
  notifyTemplatePlaceholder: {
    en: 'Unknown placeholder {name}; allowed: {allowed}',
    zh: '未知占位符 {name}；可用：{allowed}',
    ko: '알 수 없는 자리표시자 {name}; 사용 가능: {allowed}',
  },
  notifyAlertNotFound: { en: 'The alert does not exist', zh: '预警不存在', ko: '경보가 존재하지 않습니다' },
  notifyDeliveryNotFound: { en: 'The notification does not exist', zh: '通知不存在', ko: '알림이 존재하지 않습니다' },
  notifyDeliveryNotFailed: {
    en: 'Only a failed notification can be sent again',
    zh: '只有发送失败的通知才能重新发送',
    ko: '전송에 실패한 알림만 다시 보낼 수 있습니다',
  },
  notifyRetryQueued: { en: 'The notification will be sent again', zh: '通知将重新发送', ko: '알림을 다시 보냅니다' },
  // alerts (early warning core)
  alertTriggerRequired: {
    en: 'Please select the trigger condition',
    zh: '请选择触发条件',
    ko: '트리거 조건을 선택하세요',
  },
  alertLevelRequired: { en: 'Please select the alert level', zh: '请选择告警等级', ko: '경보 등급을 선택하세요' },
  alertChannelRequired: {
    en: 'Please select the alert tool type',
    zh: '请选择告警工具类型',
    ko: '경보 도구 유형을 선택하세요',
  },
  alertGroupRequired: {
    en: 'Please select the alert contact group',
    zh: '请选择告警联系人组',
    ko: '경보 연락처 그룹을 선택하세요',
  },
  alertValueFormat: {
    en: 'The alert value format is incorrect',
    zh: '告警值格式不正确',
    ko: '경보 값 형식이 올바르지 않습니다',
  },
  alertRateValueFormat: {
    en: 'The second value (rate, or exponent b) format is incorrect',
    zh: '第二个值（速率或指数 b）格式不正确',
    ko: '두 번째 값(변화율 또는 지수 b) 형식이 올바르지 않습니다',
  },
  alertWindowRequired: {
    en: 'Please set the time window (number and unit)',
    zh: '请设置时间窗口（数值和单位）',
    ko: '시간 창(값과 단위)을 설정하세요',
  },
  alertRatioRange: {
    en: 'The alert ratio must be between 0 and 1',
    zh: '告警比例必须在 0 到 1 之间',
    ko: '경보 비율은 0에서 1 사이여야 합니다',
  },
  alertRatioNeedsWindow: {
    en: 'An alert ratio needs a time window: set the window (number and unit) or clear the ratio',
    zh: '告警比例需要时间窗口：请设置时间窗口（数值和单位）或清除比例',
    ko: '경보 비율에는 시간 창이 필요합니다. 시간 창(값과 단위)을 설정하거나 비율을 지우세요',
  },
  alertQuantityUnknown: {
    en: 'The device does not measure {quantity}',
    zh: '该设备不测量 {quantity}',
    ko: '이 장치는 {quantity}을(를) 측정하지 않습니다',
  },
  alertRuleExists: {
    en: 'This quantity already has an alert value of this type and level',
    zh: '该测量项已存在相同类型和等级的告警值',
    ko: '이 측정 항목에 같은 유형과 등급의 경보 값이 이미 있습니다',
  },
  alertRuleNotFound: { en: 'The alert value does not exist', zh: '告警值不存在', ko: '경보 값이 존재하지 않습니다' },
  alertNotFound: { en: 'The alert does not exist', zh: '告警不存在', ko: '경보가 존재하지 않습니다' },
  alertCriterionNotFound: {
    en: 'The alert criterion does not exist',
    zh: '告警标准不存在',
    ko: '경보 기준이 존재하지 않습니다',
  },
  alertRelationNotFound: {
    en: 'The multi-device rule does not exist',
    zh: '多设备规则不存在',
    ko: '다중 장치 규칙이 존재하지 않습니다',
  },
  alertRelationMembers: {
    en: 'A multi-device rule needs at least two devices of one site',
    zh: '多设备规则至少需要同一站点的两个设备',
    ko: '다중 장치 규칙에는 한 현장의 장치가 두 개 이상 필요합니다',
  },
  alertDeviceRequired: { en: 'Please choose a device', zh: '请选择设备', ko: '장치를 선택하세요' },
  alertRangeInvalid: {
    en: 'The time range is invalid',
    zh: '时间范围无效',
    ko: '시간 범위가 올바르지 않습니다',
  },
  alertAlreadyProcessed: {
    en: 'This alert has been processed and can no longer be changed',
    zh: '该告警已处理，不能再修改',
    ko: '이 경보는 이미 처리되어 더 이상 변경할 수 없습니다',
  },
  alertAttachmentsMax: {
    en: 'At most 3 attachments can be added',
    zh: '最多只能添加 3 个附件',
    ko: '첨부 파일은 최대 3개까지 추가할 수 있습니다',
  },
  alertAttachmentType: {
    en: 'Attachments must be uploaded Word, PDF, jpg or png files',
    zh: '附件必须是已上传的 Word、PDF、jpg 或 png 文件',
    ko: '첨부 파일은 업로드된 Word, PDF, jpg 또는 png 파일이어야 합니다',
  },
  alertSuggestionRequired: {
    en: 'Please enter the handling suggestion',
    zh: '请输入处理意见',
    ko: '처리 의견을 입력하세요',
  },
  alertFalseAlarmTypeRequired: {
    en: 'Please select the false-alarm type',
    zh: '请选择误报类型',
    ko: '오경보 유형을 선택하세요',
  },
  alertProcessSaved: {
    en: 'Saved; the alert is in pre-process and can still be changed',
    zh: '已暂存，告警处于预处理状态，仍可修改',
    ko: '임시 저장되었습니다. 경보는 사전 처리 상태이며 계속 수정할 수 있습니다',
  },
  alertProcessed: {
    en: 'Processed; the record is now locked',
    zh: '处理完成，记录已锁定',
    ko: '처리되었습니다. 기록이 잠겼습니다',
  },
  alertReportSummary: { en: 'Summary', zh: '汇总', ko: '요약' },
  alertReportAlerts: { en: 'Alerts', zh: '告警', ko: '경보' },
  alertReportFrom: { en: 'From', zh: '开始', ko: '시작' },
  alertReportTo: { en: 'To', zh: '结束', ko: '종료' },
  alertReportTotal: { en: 'Total', zh: '合计', ko: '합계' },
  alertReportLevel: { en: 'Level', zh: '等级', ko: '등급' },
  alertReportCount: { en: 'Count', zh: '次数', ko: '건수' },
  alertReportSite: { en: 'Site', zh: '站点', ko: '현장' },
  alertReportType: { en: 'Type', zh: '类型', ko: '유형' },
  alertReportPeriod: { en: 'Period', zh: '时段', ko: '기간' },
  alertReportDevice: { en: 'Device', zh: '设备', ko: '장치' },
  alertReportQuantity: { en: 'Quantity', zh: '测量项', ko: '측정 항목' },
  alertReportStatus: { en: 'Status', zh: '状态', ko: '상태' },
  alertReportValue: { en: 'Value', zh: '数值', ko: '값' },
  alertReportThreshold: { en: 'Alert value', zh: '告警值', ko: '경보 값' },
  alertReportFirstAt: { en: 'Raised at', zh: '告警时间', ko: '발생 시각' },
  alertReportLastAt: { en: 'Last at', zh: '最近时间', ko: '최근 시각' },
  alertReportProcessedBy: { en: 'Processed by', zh: '处理人', ko: '처리자' },
  // Background jobs and the data import (server/src/platform/jobs, modules/dataImport).
  jobQueued: { en: 'The job is queued', zh: '任务已排队', ko: '작업이 대기열에 들어갔습니다' },
  jobNotFound: { en: 'The job does not exist', zh: '任务不存在', ko: '작업이 존재하지 않습니다' },
  jobCancelRequested: { en: 'Cancelled', zh: '已取消', ko: '취소되었습니다' },
  jobFinished: {
    en: 'The job has already finished',
    zh: '任务已结束',
    ko: '작업이 이미 끝났습니다',
  },
  jobInterrupted: {
    en: 'The job was interrupted {attempts} times and was given up',
    zh: '任务被中断 {attempts} 次，已放弃',
    ko: '작업이 {attempts}번 중단되어 포기했습니다',
  },
  jobFailed: { en: 'The job failed', zh: '任务失败', ko: '작업에 실패했습니다' },
  importNotCsvOrXlsx: {
    en: 'Only csv files (UTF-8 text) and xlsx workbooks can be imported',
    zh: '只能导入 csv 文件（UTF-8 文本）和 xlsx 工作簿',
    ko: 'csv 파일(UTF-8 텍스트)과 xlsx 통합 문서만 가져올 수 있습니다',
  },
  importFileNotFound: {
    en: 'The uploaded file does not exist or has expired, please upload it again',
    zh: '上传的文件不存在或已过期，请重新上传',
    ko: '업로드한 파일이 없거나 만료되었습니다. 다시 업로드하세요',
  },
  importSheetNotFound: {
    en: 'The workbook has no sheet {sheet}',
    zh: '工作簿中没有工作表 {sheet}',
    ko: '통합 문서에 {sheet} 시트가 없습니다',
  },
  importColumnMissing: {
    en: 'The file has no column {column}',
    zh: '文件没有第 {column} 列',
    ko: '파일에 {column}번째 열이 없습니다',
  },
  importTimeZone: {
    en: '{zone} is not a time zone (give an IANA name such as Asia/Shanghai, or "offset")',
    zh: '{zone} 不是时区（请填写 IANA 名称，如 Asia/Shanghai，或 "offset"）',
    ko: '{zone}은(는) 시간대가 아닙니다 (Asia/Seoul 같은 IANA 이름 또는 "offset")',
  },
  importNeedsDryRun: {
    en: 'Run a dry run of the file first, and import when it has finished',
    zh: '请先试运行该文件，完成后再导入',
    ko: '먼저 파일을 시험 실행하고, 끝난 뒤 가져오세요',
  },
  importDryRunFailed: {
    en: 'The dry run found {count} errors: nothing is imported from this file',
    zh: '试运行发现 {count} 个错误：该文件不会导入任何数据',
    ko: '시험 실행에서 오류 {count}개가 발견되어 이 파일에서 아무것도 가져오지 않습니다',
  },
  importFileChanged: {
    en: 'The file no longer matches its dry run: nothing more is imported ({reason} at line {line})',
    zh: '文件与试运行时不一致：不再导入（第 {line} 行：{reason}）',
    ko: '파일이 시험 실행과 달라져 더 이상 가져오지 않습니다 ({line}행: {reason})',
  },
  // Report jobs and scheduled reports (modules/reportJobs).
  reportJobNotReady: {
    en: 'The report is not ready: download it when its job is done',
    zh: '报表尚未生成：请在任务完成后下载',
    ko: '보고서가 아직 준비되지 않았습니다. 작업이 끝난 뒤 내려받으세요',
  },
  reportScheduleNotFound: {
    en: 'The report schedule does not exist',
    zh: '报表计划不存在',
    ko: '보고서 일정이 존재하지 않습니다',
  },
  reportScheduleWhen: {
    en: 'A weekly schedule needs its weekday, a monthly one its day of the month',
    zh: '每周计划需要指定星期几，每月计划需要指定日期',
    ko: '매주 일정에는 요일이, 매월 일정에는 날짜가 필요합니다',
  },
  reportScheduleLimit: {
    en: 'You may keep at most {max} report schedules',
    zh: '最多只能保留 {max} 个报表计划',
    ko: '보고서 일정은 최대 {max}개까지 둘 수 있습니다',
  },
  reportScheduleNoRecipients: {
    en: 'The contact group has no member with an e-mail address: nothing was mailed',
    zh: '联系人组中没有带电子邮箱的成员：未发送任何邮件',
    ko: '연락처 그룹에 이메일 주소가 있는 구성원이 없어 아무것도 보내지 않았습니다',
  },
  // Cameras (issue 19)
  cameraNotFound: { en: 'The camera does not exist', zh: '摄像头不存在', ko: '카메라가 존재하지 않습니다' },
  cameraGroupNotFound: {
    en: 'The camera group does not exist',
    zh: '摄像头分组不存在',
    ko: '카메라 그룹이 존재하지 않습니다',
  },
  cameraGroupTooDeep: {
    en: 'Camera groups are at most {max} levels deep',
    zh: '摄像头分组最多 {max} 级',
    ko: '카메라 그룹은 최대 {max}단계입니다',
  },
  cameraGroupForeign: {
    en: 'The group holds cameras of sites outside your data authority: it cannot be deleted',
    zh: '该分组包含您数据权限之外站点的摄像头，不能删除',
    ko: '이 그룹에는 데이터 권한 밖 현장의 카메라가 있어 삭제할 수 없습니다',
  },
  cameraExists: {
    en: 'A camera with this serial number and channel already exists',
    zh: '该序列号和通道的摄像头已存在',
    ko: '같은 일련번호와 채널의 카메라가 이미 있습니다',
  },
  cameraRtspRequired: {
    en: 'Enter the RTSP address of a camera of this vendor',
    zh: '该厂商的摄像头须填写 RTSP 地址',
    ko: '이 제조사의 카메라는 RTSP 주소를 입력하세요',
  },
  cameraOnvifRequired: {
    en: 'Enter the ONVIF address of a PTZ camera',
    zh: '云台摄像头须填写 ONVIF 地址',
    ko: 'PTZ 카메라는 ONVIF 주소를 입력하세요',
  },
  cameraConcurrencyLimit: {
    en: 'The camera concurrency limit ({max}) is reached, please close a video first',
    zh: '摄像头并发数已达上限（{max}），请先关闭其他视频',
    ko: '카메라 동시 재생 한도({max})에 도달했습니다. 먼저 다른 영상을 닫으세요',
  },
  cameraUnreachable: {
    en: 'The camera cannot be reached',
    zh: '无法连接摄像头',
    ko: '카메라에 연결할 수 없습니다',
  },
  cameraNoPtz: { en: 'This camera has no PTZ', zh: '该摄像头不支持云台', ko: '이 카메라는 PTZ를 지원하지 않습니다' },
  cameraPtzFailed: {
    en: 'The camera refused the PTZ command: {reason}',
    zh: '摄像头拒绝了云台指令：{reason}',
    ko: '카메라가 PTZ 명령을 거부했습니다: {reason}',
  },
  cameraStreamNotFound: {
    en: 'The video stream has ended',
    zh: '视频流已结束',
    ko: '영상 스트림이 종료되었습니다',
  },
  cameraOwnRole: {
    en: 'You cannot change the camera configuration of your own role',
    zh: '不能修改自己角色的摄像头配置',
    ko: '자신의 역할의 카메라 설정은 바꿀 수 없습니다',
  },
  cameraGrantBeyondOwn: {
    en: 'You can only grant cameras and groups you can see yourself',
    zh: '只能授予您自己可见的摄像头和分组',
    ko: '자신이 볼 수 있는 카메라와 그룹만 부여할 수 있습니다',
  },
  cameraTaskNotFound: {
    en: 'The camera task does not exist',
    zh: '摄像头任务不存在',
    ko: '카메라 작업이 존재하지 않습니다',
  },
  cameraSnapshotNotFound: { en: 'The snapshot does not exist', zh: '抓图不存在', ko: '스냅샷이 존재하지 않습니다' },
  // 3D models and panoramas (issue 21 items 6 and 7).
  threeDModelNotFound: {
    en: 'The site has no 3D model',
    zh: '该站点没有三维模型',
    ko: '이 현장에는 3D 모델이 없습니다',
  },
  threeDSiteNoScene: {
    en: 'Bridge and slope sites have no 3D scene',
    zh: '桥梁和边坡站点没有三维场景',
    ko: '교량 및 사면 현장에는 3D 장면이 없습니다',
  },
  threeDNotGlb: {
    en: '{name} is not a glTF binary model (.glb, glTF 2.0): {reason}',
    zh: '{name} 不是 glTF 二进制模型（.glb，glTF 2.0）：{reason}',
    ko: '{name}은(는) glTF 바이너리 모델(.glb, glTF 2.0)이 아닙니다: {reason}',
  },
  threeDTilesetMissing: {
    en: 'There is no tileset {name} under DATA_DIR/threeD/tilesets (a folder with a tileset.json)',
    zh: 'DATA_DIR/threeD/tilesets 下没有瓦片集 {name}（含 tileset.json 的文件夹）',
    ko: 'DATA_DIR/threeD/tilesets 아래에 타일셋 {name}이(가) 없습니다 (tileset.json이 있는 폴더)',
  },
  threeDTileNotFound: {
    en: "No such file in the site's tileset",
    zh: '场地瓦片集中没有该文件',
    ko: '현장 타일셋에 그런 파일이 없습니다',
  },
  threeDNotDem: {
    en: '{name} is not an elevation model that can be used: {reason}',
    zh: '{name} 不是可用的高程模型：{reason}',
    ko: '{name}은(는) 사용할 수 있는 고도 모델이 아닙니다: {reason}',
  },
  threeDModelTooLarge: {
    en: 'The model is larger than {max} MB',
    zh: '模型超过 {max} MB',
    ko: '모델이 {max}MB보다 큽니다',
  },
  threeDDeviceNotOnSite: {
    en: 'Device {id} does not exist on this site',
    zh: '设备 {id} 不属于该站点',
    ko: '장치 {id}은(는) 이 현장에 없습니다',
  },
  threeDDuplicateDevice: {
    en: 'Device {id} is placed twice',
    zh: '设备 {id} 被放置了两次',
    ko: '장치 {id}이(가) 두 번 배치되었습니다',
  },
  panoramaNotFound: { en: 'The panorama does not exist', zh: '全景图不存在', ko: '파노라마가 존재하지 않습니다' },
  panoramaNotImage: {
    en: '{name} is not a JPEG or PNG image',
    zh: '{name} 不是 JPEG 或 PNG 图片',
    ko: '{name}은(는) JPEG 또는 PNG 이미지가 아닙니다',
  },
  panoramaNotPanorama: {
    en: '{name} is not a panorama: an equirectangular photo is twice as wide as it is high ({width} × {height} px)',
    zh: '{name} 不是全景图：等距柱状投影照片的宽度应为高度的两倍（{width} × {height} 像素）',
    ko: '{name}은(는) 파노라마가 아닙니다: 등장방형 사진은 너비가 높이의 두 배여야 합니다 ({width} × {height} px)',
  },
  panoramaSizeRange: {
    en: 'A panorama must be {min} to {max} px wide ({width} px)',
    zh: '全景图宽度应为 {min} 至 {max} 像素（当前 {width} 像素）',
    ko: '파노라마 너비는 {min}~{max}px이어야 합니다 ({width}px)',
  },
  panoramaTooLarge: {
    en: 'The image is larger than {max} MB',
    zh: '图片超过 {max} MB',
    ko: '이미지가 {max}MB보다 큽니다',
  },
  panoramaNameTaken: {
    en: 'The site already has a panorama of this name',
    zh: '该站点已有同名全景图',
    ko: '이 현장에 같은 이름의 파노라마가 이미 있습니다',
  },
  panoramaTargetNotFound: {
    en: 'Panorama {id} is not another panorama of this site',
    zh: '全景图 {id} 不是该站点的其他全景图',
    ko: '파노라마 {id}은(는) 이 현장의 다른 파노라마가 아닙니다',
  },
  // Field tasks (modules/tasks; spec §4 workflow, §5 required fields, completion rate 1 to 100, at most 3 files).
  taskNotFound: { en: 'The task does not exist', zh: '任务不存在', ko: '작업이 존재하지 않습니다' },
  taskNameRequired: {
    en: 'The task name cannot be empty',
    zh: '任务名称不能为空',
    ko: '작업 이름은 비워 둘 수 없습니다',
  },
  taskPriorityRequired: {
    en: 'The task priority cannot be empty',
    zh: '任务优先级不能为空',
    ko: '작업 우선순위는 비워 둘 수 없습니다',
  },
  taskSiteRequired: { en: 'The site cannot be empty', zh: '平台不能为空', ko: '현장은 비워 둘 수 없습니다' },
  taskAssigneeRequired: {
    en: 'The responsible person cannot be empty',
    zh: '负责人不能为空',
    ko: '담당자는 비워 둘 수 없습니다',
  },
  taskReviewerRequired: {
    en: 'The reviewer cannot be empty',
    zh: '审核人不能为空',
    ko: '검토자는 비워 둘 수 없습니다',
  },
  taskProjectRequired: {
    en: 'The project cannot be empty',
    zh: '所属项目不能为空',
    ko: '프로젝트는 비워 둘 수 없습니다',
  },
  taskConstructionPointRequired: {
    en: 'The construction point cannot be empty',
    zh: '施工点不能为空',
    ko: '시공 지점은 비워 둘 수 없습니다',
  },
  taskStartTimeRequired: {
    en: 'The start time cannot be empty',
    zh: '开始时间不能为空',
    ko: '시작 시간은 비워 둘 수 없습니다',
  },
  taskEndTimeRequired: {
    en: 'The end time cannot be empty',
    zh: '结束时间不能为空',
    ko: '종료 시간은 비워 둘 수 없습니다',
  },
  taskDescriptionRequired: {
    en: 'The description cannot be empty',
    zh: '任务描述不能为空',
    ko: '설명은 비워 둘 수 없습니다',
  },
  taskEndBeforeStart: {
    en: 'The end time must be after the start time',
    zh: '结束时间必须晚于开始时间',
    ko: '종료 시간은 시작 시간 이후여야 합니다',
  },
  taskTooManyFiles: { en: 'At most {max} files', zh: '最多上传 {max} 个文件', ko: '파일은 최대 {max}개입니다' },
  taskFileNotFound: {
    en: 'The file {file} does not exist',
    zh: '文件 {file} 不存在',
    ko: '파일 {file}이(가) 없습니다',
  },
  taskFileOtherSite: {
    en: 'The file {name} belongs to another site',
    zh: '文件 {name} 属于其他平台',
    ko: '파일 {name}은(는) 다른 현장의 파일입니다',
  },
  taskReviewerIsAssignee: {
    en: 'The reviewer cannot be the responsible person',
    zh: '审核人不能是负责人',
    ko: '검토자는 담당자와 같을 수 없습니다',
  },
  taskAssigneeNotOfSite: {
    en: 'The responsible person must be a user who may see the site',
    zh: '负责人必须是可查看该平台的用户',
    ko: '담당자는 이 현장을 볼 수 있는 사용자여야 합니다',
  },
  taskReviewerNotOfSite: {
    en: 'The reviewer must be a user who may see the site',
    zh: '审核人必须是可查看该平台的用户',
    ko: '검토자는 이 현장을 볼 수 있는 사용자여야 합니다',
  },
  taskDeviceNotOfSite: {
    en: 'The device is not one of the site',
    zh: '该设备不属于此平台',
    ko: '이 장치는 해당 현장의 장치가 아닙니다',
  },
  taskCompletedNoEdit: {
    en: 'A completed task cannot be edited',
    zh: '已完成的任务不能编辑',
    ko: '완료된 작업은 수정할 수 없습니다',
  },
  taskNotAssignee: {
    en: 'Only the responsible person of the task may do this',
    zh: '只有任务负责人可以执行此操作',
    ko: '작업 담당자만 할 수 있습니다',
  },
  taskAlreadyStarted: { en: 'The task has already been started', zh: '任务已开始', ko: '이미 시작된 작업입니다' },
  taskNotStarted: {
    en: 'The task has not been started: start it first',
    zh: '任务尚未开始，请先开始任务',
    ko: '작업이 시작되지 않았습니다. 먼저 시작하세요',
  },
  taskAlreadySubmitted: {
    en: 'The task has been submitted for review: it can no longer be changed until reviewed',
    zh: '任务已提交审核，审核前不能再修改',
    ko: '작업이 검토 요청되어 검토 전에는 변경할 수 없습니다',
  },
  taskAlreadyCompleted: { en: 'The task is already completed', zh: '任务已完成', ko: '이미 완료된 작업입니다' },
  taskNotToBeReviewed: {
    en: 'The task has not been submitted for review: it cannot be completed',
    zh: '任务尚未提交审核，不能完成',
    ko: '작업이 검토 요청되지 않아 완료할 수 없습니다',
  },
  taskReviewOwn: {
    en: 'You cannot review your own task',
    zh: '不能审核自己的任务',
    ko: '자신의 작업은 검토할 수 없습니다',
  },
  taskNotReviewer: {
    en: 'Only the reviewer of the task may review it',
    zh: '只有任务审核人可以审核',
    ko: '작업 검토자만 검토할 수 있습니다',
  },
  taskReviewResultRequired: {
    en: 'The review result cannot be empty',
    zh: '审核结果不能为空',
    ko: '검토 결과는 비워 둘 수 없습니다',
  },
  taskGradeRequired: {
    en: 'The completion grade cannot be empty',
    zh: '完成等级不能为空',
    ko: '완료 등급은 비워 둘 수 없습니다',
  },
  taskReviewNoteRequired: {
    en: 'A failed review needs a note: what must be done again',
    zh: '审核不通过时必须填写意见',
    ko: '불합격에는 의견(다시 할 일)이 필요합니다',
  },
  taskProgressTextRequired: {
    en: 'The progress description cannot be empty',
    zh: '进度描述不能为空',
    ko: '진행 내용은 비워 둘 수 없습니다',
  },
  taskRateRequired: {
    en: 'The completion rate cannot be empty',
    zh: '完成率不能为空',
    ko: '완료율은 비워 둘 수 없습니다',
  },
  taskRateRange: {
    en: 'The completion rate must be between {min} and {max}',
    zh: '完成率必须在 {min} 到 {max} 之间',
    ko: '완료율은 {min}에서 {max} 사이여야 합니다',
  },
  taskProgressDayRange: {
    en: 'The day of a progress report must be from {from} to {to}',
    zh: '进度汇报的日期必须在 {from} 到 {to} 之间',
    ko: '진행 보고 날짜는 {from}부터 {to}까지여야 합니다',
  },
  taskPositionIncomplete: {
    en: 'A position needs both latitude and longitude',
    zh: '位置需要同时填写纬度和经度',
    ko: '위치에는 위도와 경도가 모두 필요합니다',
  },
  taskPeriodReversed: {
    en: 'The end of the period must not be before its start',
    zh: '结束日期不能早于开始日期',
    ko: '기간의 끝은 시작보다 빠를 수 없습니다',
  },
  taskStarted: { en: 'Task started', zh: '任务已开始', ko: '작업을 시작했습니다' },
  taskSubmitted: { en: 'Submitted for review', zh: '已提交审核', ko: '검토를 요청했습니다' },
  taskReviewed: { en: 'Review saved', zh: '审核已保存', ko: '검토를 저장했습니다' },
} as const satisfies Record<string, Record<Language, string>>;

export type MessageKey = keyof typeof MESSAGES;

/** Issue codes of zod, as a rule name a person understands. */
export const RULES: Record<string, Record<Language, string>> = {
  required: { en: 'is required', zh: '不能为空', ko: '필수 항목입니다' },
  invalid_type: { en: 'has the wrong type', zh: '类型错误', ko: '형식이 잘못되었습니다' },
  too_small: { en: 'is too short or too small', zh: '过短或过小', ko: '너무 짧거나 작습니다' },
  too_big: { en: 'is too long or too large', zh: '过长或过大', ko: '너무 길거나 큽니다' },
  invalid_format: { en: 'is not well formed', zh: '格式不正确', ko: '형식이 올바르지 않습니다' },
  invalid_value: { en: 'is not one of the allowed values', zh: '不是允许的值', ko: '허용된 값이 아닙니다' },
  not_multiple_of: { en: 'is not a valid step', zh: '不是有效的步长', ko: '올바른 단위가 아닙니다' },
  unrecognized_keys: { en: 'has unknown keys', zh: '包含未知字段', ko: '알 수 없는 키가 있습니다' },
  custom: { en: 'is not valid', zh: '无效', ko: '올바르지 않습니다' },
  text: {
    en: 'contains a NUL character or a broken Unicode character (lone surrogate)',
    zh: '包含空字符（NUL）或损坏的 Unicode 字符（孤立代理项）',
    ko: 'NUL 문자 또는 손상된 유니코드 문자(단독 서로게이트)를 포함합니다',
  },
  sortField: {
    en: 'is not a column name',
    zh: '不是列名',
    ko: '열 이름이 아닙니다',
  },
  recordingDuration: {
    en: 'is required for a recording: a whole number of seconds from 5 to 300',
    zh: '录像任务必填：5 到 300 之间的整数秒',
    ko: '녹화 작업에 필수입니다: 5초에서 300초 사이의 정수',
  },
  vmUser: {
    en: 'must not contain a colon (:): a camera login cannot carry one',
    zh: '不能包含冒号（:）：摄像机登录名不能含冒号',
    ko: '콜론(:)을 포함할 수 없습니다: 카메라 로그인 이름에는 콜론을 쓸 수 없습니다',
  },
  tilesetName: {
    en: 'is not a folder name of letters, digits, dots, dashes and underscores',
    zh: '不是由字母、数字、点、短横线和下划线组成的文件夹名',
    ko: '문자, 숫자, 점, 하이픈, 밑줄로 된 폴더 이름이 아닙니다',
  },
  jsonNumberArray: {
    en: 'is not a well-formed JSON array of numbers (e.g. [1.2, 1.5]; or send numbers separated by commas)',
    zh: '不是格式正确的 JSON 数字数组（例如 [1.2, 1.5]；或以逗号分隔的数字）',
    ko: '올바른 JSON 숫자 배열이 아닙니다 (예: [1.2, 1.5]; 또는 쉼표로 구분된 숫자)',
  },
};

export function parseLanguage(h: unknown): Language {
  const v = (Array.isArray(h) ? h[0] : h)?.toString().slice(0, 2).toLowerCase();
  return v === 'zh' || v === 'ko' ? v : 'en';
}

export function translate(lang: Language, key: MessageKey, params: Record<string, string | number> = {}): string {
  const text: string = MESSAGES[key][lang];
  return text.replace(/\{(\w+)\}/g, (_, p: string) => String(params[p] ?? `{${p}}`));
}
