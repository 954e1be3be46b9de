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
  commentNotFound: { en: 'The comment does not exist', zh: '评论不存在', ko: '댓글이 존재하지 않습니다' },
  replyNotFound: { en: 'The reply does not exist', zh: '回复不存在', ko: '답글이 존재하지 않습니다' },
  notAuthor: {
    en: 'Only the author or a super administrator can delete it',
    zh: '只有作者或超级管理员可以删除',
    ko: '작성자 또는 최고 관리자만 삭제할 수 있습니다',
  },
  // Device ingest (the answer's data carries the reason code and detail).
  ingestStored: { en: '{stored} stored, {duplicates} already stored', zh: '已保存 {stored} 条，{duplicates} 条此前已保存', ko: '{stored}건 저장, {duplicates}건은 이미 저장됨' },
  ingestBadPayload: { en: 'The readings were refused: {detail}', zh: '数据被拒绝：{detail}', ko: '측정값이 거부되었습니다: {detail}' },
  ingestBadCredentials: { en: 'Unknown terminal or wrong key', zh: '终端不存在或密钥错误', ko: '알 수 없는 단말기이거나 키가 틀렸습니다' },
  ingestNotYourDevice: { en: 'The terminal may not send for device {detail}', zh: '该终端无权发送设备 {detail} 的数据', ko: '이 단말기는 {detail} 장치의 데이터를 보낼 수 없습니다' },
  ingestRateLimited: { en: 'Too many readings for this device; try again in {seconds} s', zh: '该设备数据过多，请 {seconds} 秒后重试', ko: '이 장치의 측정값이 너무 많습니다. {seconds}초 후 다시 시도하세요' },
  ingestOverloaded: { en: 'The server is busy; try again in {seconds} s', zh: '服务器繁忙，请 {seconds} 秒后重试', ko: '서버가 바쁩니다. {seconds}초 후 다시 시도하세요' },
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
};

export function parseLanguage(h: unknown): Language {
  const v = (Array.isArray(h) ? h[0] : h)?.toString().slice(0, 2).toLowerCase();
  return v === 'zh' || v === 'ko' ? v : 'en';
}

export function translate(lang: Language, key: MessageKey, params: Record<string, string | number> = {}): string {
  const text: string = MESSAGES[key][lang];
  return text.replace(/\{(\w+)\}/g, (_, p: string) => String(params[p] ?? `{${p}}`));
}
