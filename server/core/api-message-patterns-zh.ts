/**
 * The Chinese of the API's sentences with values (server/core/api-messages-zh.ts has the exact
 * sentences and re-exports these). Each pattern matches the English the service writes, with any
 * value in place, and builds the Chinese from its captures; values the code writes in English (a
 * status, a duration, a table's label, a sentence appended as a hint) are translated on the way.
 */

type Pattern = readonly [RegExp, (match: RegExpExecArray) => string];

/** A value from a table, or the value itself when the table has no entry for it. */
const lookup = (table: Readonly<Record<string, string>>, value = ''): string =>
  Object.hasOwn(table, value) ? (table[value] ?? value) : value;

/** Latin text next to Chinese gets a space on that side (`读取 X2 的`, `30 秒后`). */
const LATIN = /^[\x21-\x7e]/;
const lead = (text = '') => (LATIN.test(text) ? ` ${text}` : text);
const trail = (text = '') => (/[\x21-\x7e]$/.test(text) ? `${text} ` : text);
const spaced = (text = '') => trail(lead(text));

/** Where in a request a value was (Fastify's validation context). */
const REQUEST_PARTS: Readonly<Record<string, string>> = {
  body: '请求体',
  querystring: '查询参数',
  params: '路径参数',
  headers: '请求头',
};
const requestPart = (part = '') => lookup(REQUEST_PARTS, part) || part;

/** The data API's table labels, verbs and column types (server/domains/data-api). */
const TABLE_LABELS: Readonly<Record<string, string>> = {
  'video tasks': '视频任务',
  'credit transactions': '积分流水',
  posts: '文章',
  users: '用户',
};
const VERBS: Readonly<Record<string, string>> = {
  read: '读取',
  add: '添加',
  change: '修改',
  delete: '删除',
};
const TYPE_NAMES: Readonly<Record<string, string>> = {
  'a UUID': 'UUID',
  'a whole number': '整数',
  text: '文本',
  'an ISO 8601 date or time such as "2025-01-31T12:00:00Z"':
    'ISO 8601 日期或时间，例如 "2025-01-31T12:00:00Z"',
  'true or false': 'true 或 false',
  'a list of text': '文本列表',
};
const TASK_STATUSES: Readonly<Record<string, string>> = {
  pending: '等待中',
  processing: '生成中',
  completed: '已完成',
  failed: '失败',
};
const DURATION_UNITS: Readonly<Record<string, string>> = {
  ms: '毫秒',
  second: '秒',
  minute: '分钟',
  hour: '小时',
  day: '天',
  year: '年',
};
/** Hints appended to a data-API refusal (the tables' writeHint). */
const HINTS: Readonly<Record<string, string>> = {
  'Videos are started with POST /api/video/generate, which also charges the credits; tasks are never edited by hand.':
    '视频通过 POST /api/video/generate 发起，该接口同时扣除积分；任务不能手动修改。',
  'The credit ledger is append-only: credits change only through purchases, video generation, refunds and the administrator credit calls.':
    '积分账本只能追加：积分只会因购买、生成视频、退款和管理员的积分操作而变动。',
  'Posts are written by blog editors.': '文章由博客编辑撰写。',
  'Accounts are created by signing in; credits change only through the ledger and blog rights are granted by an operator.':
    '账户在登录时创建；积分只通过积分账本变动，博客权限由运营人员授予。',
};

/** How billing/checkout.ts says a checkout ended: 'cancelled' or 'closed'. */
const checkoutEnd = (state = '') =>
  state === 'cancelled' ? '已取消' : state === 'closed' ? '已关闭' : `状态为 ${state}`;
const label = (value?: string) => lookup(TABLE_LABELS, value);
const list = (value = '') => (value === '(none)' ? '（无）' : value);
/** What a data-API input check names: 'the new row', 'data', 'the arguments of <function>'. */
const inputName = (what = '') => {
  if (what === 'the new row') return '新行';
  const fn = /^the arguments of (.+)$/.exec(what);
  return fn ? `函数 ${fn[1]} 的参数` : what;
};
/** @lukeed/ms's long format, as @fastify/rate-limit writes it: "30 seconds", "1 minute". */
const duration = (value = '') => {
  const m = /^(-?[\d.]+) (ms|second|minute|hour|day|year)s?$/.exec(value);
  return m ? `${m[1]} ${lookup(DURATION_UNITS, m[2])}` : value;
};
/** A price as billing/pricing.ts describes it: "Pro (29 USD/month)", "the Starter pack (9 USD)". */
const purchase = (value = '') => {
  const pack = /^the (.+) pack \((.+)\)$/.exec(value);
  if (pack) return `${pack[1]} 积分包（${pack[2]}）`;
  const plan = /^(.+) \((.+)\/(month|year)\)$/.exec(value);
  if (plan) return `${plan[1]} 套餐（${plan[2]}/${plan[3] === 'year' ? '年' : '月'}）`;
  return value;
};
/** A sentence appended to another (a refund, a hint), translated when it is known. */
const sentence = (text?: string): string => {
  if (!text) return '';
  if (Object.hasOwn(HINTS, text)) return lookup(HINTS, text);
  for (const [pattern, render] of API_MESSAGE_PATTERNS_ZH) {
    const match = pattern.exec(text);
    if (match) return render(match);
  }
  return text;
};

/** Sentences with values: a pattern over the English and the Chinese made from its captures. */
export const API_MESSAGE_PATTERNS_ZH: ReadonlyArray<Pattern> = [
  // server/core
  [
    /^Requests without a session may send at most (.+?) here\. Sign in to send more\.$/,
    (m) => `未登录的请求在此最多只能发送 ${m[1]}，登录后可发送更多。`,
  ],
  [
    /^Pages beyond (.+?) rows are served by cursor: pass next_cursor from the previous page as cursor\.(?: ?(.+))?$/,
    (m) =>
      `超过 ${m[1]} 行后的分页须使用游标：请将上一页的 next_cursor 作为 cursor 传入。${sentence(m[2])}`,
  ],
  [
    /^Cursor pages follow (.+?) order: leave orderBy out \(or set it to (.+?)\)\.$/,
    (m) => `游标分页按 ${m[1]} 排序：请不要传 orderBy（或将其设为 ${m[2]}）。`,
  ],
  [
    /^Unknown field '(.+?)' in the request (.+?)\.$/,
    (m) => `${trail(requestPart(m[2]))}中有未知字段 '${m[1]}'。`,
  ],
  [/^The field '(.+?)' is required\.$/, (m) => `字段 '${m[1]}' 为必填项。`],
  [/^'(.+?)' must be a valid email address\.$/, (m) => `'${m[1]}' 必须是有效的邮箱地址。`],
  [/^Invalid '(.+?)': must be a finite number\.$/, (m) => `'${m[1]}' 无效：必须是有限的数值。`],
  [
    /^Invalid '(.+?)' in (.+?): use one of (.+)\.$/,
    (m) => `${trail(inputName(m[2]))}中的 '${m[1]}' 无效：请使用以下值之一：${m[3]}。`,
  ],
  [
    /^Invalid value (.+?) for '(.+?)' in (.+?): use one of (.+)\.$/,
    (m) => `${m[3]} 中 '${m[2]}' 的值 ${m[1]} 无效：请使用以下值之一：${m[4]}。`,
  ],
  [
    /^Invalid value (.+?) for '(.+?)' in (.+?): expected (.+)\.$/,
    (m) => `${m[3]} 中 '${m[2]}' 的值 ${m[1]} 无效：应为${lead(lookup(TYPE_NAMES, m[4]))}。`,
  ],
  [
    /^Invalid '(.+?)' in (.+?): (.+)\.$/,
    (m) => `${trail(inputName(m[2]))}中的 '${m[1]}' 无效：${m[3]}。`,
  ],
  [/^Invalid '(.+?)': (.+)\.$/, (m) => `'${m[1]}' 无效：${m[2]}。`],
  [/^Invalid request (.+?): (.+)\.$/, (m) => `${trail(requestPart(m[1]))}无效：${m[2]}。`],
  [/^Invalid (.+?): (.+)\.$/, (m) => `${trail(inputName(m[1]))}无效：${m[2]}。`],
  [
    /^There is no (\S+) (.+?) here\. Check the address\.$/,
    (m) => `这里没有 ${m[1]} ${m[2]}，请检查地址。`,
  ],
  [
    /^The image is larger than (.+?)MB\. Please choose a smaller image\.$/,
    (m) => `图片超过 ${m[1]}MB，请选择更小的图片。`,
  ],
  [
    /^Too many attempts\. Please wait (.+?) and try again\.$/,
    (m) => `尝试次数过多，请等待${spaced(duration(m[1]))}后重试。`,
  ],
  [
    /^The request body nests objects or arrays more than (.+?) levels deep; send a flatter JSON document\.$/,
    (m) => `请求体中对象或数组的嵌套超过 ${m[1]} 层，请发送层级更浅的 JSON 文档。`,
  ],
  [
    /^'(.+?)' contains a NUL character \(\\u0000\), which cannot be stored\. Remove it and try again\.$/,
    (m) => `'${m[1]}' 包含无法存储的 NUL 字符（\\u0000），请删除后重试。`,
  ],
  [
    /^The request body uses the reserved key '(.+?)', which is not allowed\. Rename or remove it\.$/,
    (m) => `请求体使用了不允许的保留键 '${m[1]}'，请重命名或删除。`,
  ],
  [
    /^Send the image as multipart\/form-data in the field '(.+?)'\.$/,
    (m) => `请以 multipart/form-data 格式在字段 '${m[1]}' 中发送图片。`,
  ],
  [
    /^Unexpected field '(.+?)': this upload takes only the image, as '(.+?)'\.$/,
    (m) => `意外的字段 '${m[1]}'：此上传只接受图片，字段名为 '${m[2]}'。`,
  ],
  [
    /^Unexpected file field '(.+?)'; send the (?:image|picture) as '(.+?)'\.$/,
    (m) => `意外的文件字段 '${m[1]}'：请以字段 '${m[2]}' 发送图片。`,
  ],
  [
    /^No file in the field '(.+?)'\. Choose an image to upload\.$/,
    (m) => `字段 '${m[1]}' 中没有文件，请选择要上传的图片。`,
  ],
  // Accounts, admin and billing
  [
    /^Only a failed task can be refunded; this one is (.+?)\.$/,
    (m) => `只有失败的任务才能退款，此任务的状态是“${lookup(TASK_STATUSES, m[1])}”。`,
  ],
  [
    /^The amount (.+?) does not match the price of (.+?)\. Reload the pricing page and try again\.$/,
    (m) => `金额 ${m[1]} 与${spaced(purchase(m[2]))}的价格不符，请刷新价格页面后重试。`,
  ],
  [
    /^This checkout was (.+?)\. Start a new purchase from the pricing page\.$/,
    (m) => `此结账${checkoutEnd(m[1])}，请从价格页面重新购买。`,
  ],
  [
    /^Payments are in (.+?); '(.+?)' is not accepted\.$/,
    (m) => `付款货币为 ${m[1]}，不接受 '${m[2]}'。`,
  ],
  [
    /^Unknown plan '(.+?)'\. Choose one of: (.+)\.$/,
    (m) => `未知套餐 '${m[1]}'。请从以下套餐中选择：${m[2]}。`,
  ],
  [
    /^Unknown credit pack '(.+?)'\. Choose one of: (.+)\.$/,
    (m) => `未知积分包 '${m[1]}'。请从以下积分包中选择：${m[2]}。`,
  ],
  [
    /^'(.+?)' must be a path on this site, such as \/pricing, or an address starting with (.+?)\/\. Reload the pricing page and try again\.$/,
    (m) =>
      `'${m[1]}' 必须是本站的路径（如 /pricing），或以 ${m[2]}/ 开头的地址。请刷新价格页面后重试。`,
  ],
  [
    /^This would take the balance past (.+?) credits, the most an account can hold\. Grant at most (.+?)\.$/,
    (m) => `这会使余额超过 ${m[1]} 积分，即一个账户可持有的上限。最多只能再发放 ${m[2]} 积分。`,
  ],
  [
    /^Not enough credits: this needs (.+?) and the balance is (.+?)\.$/,
    (m) => `积分不足：需要 ${m[1]} 积分，当前余额为 ${m[2]}。`,
  ],
  [
    /^The amount must be a whole number other than zero, at most (.+?) either way\.$/,
    (m) => `数量必须是非零整数，增加或扣除都不能超过 ${m[1]}。`,
  ],
  [
    /^This key was already used for a change of (.+?) credits to this account\. Send a new key for a new change\.$/,
    (m) => `此幂等键已用于该账户一次 ${m[1]} 积分的变更。新的变更请使用新的键。`,
  ],
  [
    /^Too many failed sign-ins\. Try again in (.+?) minute(?:s|X2)?\.$/,
    (m) => `登录失败次数过多，请在 ${m[1]} 分钟后重试。`,
  ],
  [
    /^This would take the balance below zero \(balance (.+?)\)\.$/,
    (m) => `这会使余额低于零（当前余额 ${m[1]}）。`,
  ],
  // Data API
  [
    /^The field '(.+?)' is required in (.+?)\.$/,
    (m) => `${trail(inputName(m[2]))}中的字段 '${m[1]}' 为必填项。`,
  ],
  [/^Ask for at most (.+?) columns\.$/, (m) => `最多只能请求 ${m[1]} 列。`],
  [
    /^Unknown column '(.+?)' in columns\. Columns you can read: (.+)\.$/,
    (m) => `columns 中有未知列 '${m[1]}'。你可以读取的列：${list(m[2])}。`,
  ],
  [
    /^Unknown column '(.+?)' in orderBy\. Columns you can sort by: (.+)\.$/,
    (m) => `orderBy 中有未知列 '${m[1]}'。可用于排序的列：${list(m[2])}。`,
  ],
  [/^'(.+?)' is a list and cannot be filtered on\.$/, (m) => `'${m[1]}' 是列表，不能用于筛选。`],
  [
    /^'(.+?)' compares numbers, dates and text; '(.+?)' is (.+?)\. Use eq or neq\.$/,
    (m) =>
      `'${m[1]}' 只能比较数字、日期和文本，而 '${m[2]}' 是${lead(lookup(TYPE_NAMES, m[3]))}。请使用 eq 或 neq。`,
  ],
  [
    /^'in' for '(.+?)' needs a list of 1 to (.+?) values\.$/,
    (m) => `'${m[1]}' 的 'in' 需要一个包含 1 到 ${m[2]} 个值的列表。`,
  ],
  [
    /^'like' only applies to free text; '(.+?)' is not\.$/,
    (m) => `'like' 只适用于自由文本，'${m[1]}' 不是自由文本。`,
  ],
  [
    /^'like' for '(.+?)' needs a pattern of 1 to (.+?) characters \(% and _ are wildcards\)\.$/,
    (m) => `'${m[1]}' 的 'like' 需要 1 到 ${m[2]} 个字符的匹配模式（% 和 _ 为通配符）。`,
  ],
  [
    /^The 'like' pattern for '(.+?)' ends with a lone backslash; write \\\\ for a backslash\.$/,
    (m) => `'${m[1]}' 的 'like' 模式以单个反斜杠结尾；反斜杠本身请写作 \\\\。`,
  ],
  [/^where names at most (.+?) columns\.$/, (m) => `where 最多只能指定 ${m[1]} 列。`],
  [
    /^Unknown column '(.+?)' in where\. Columns you can filter on: (.+)\.$/,
    (m) => `where 中有未知列 '${m[1]}'。可用于筛选的列：${list(m[2])}。`,
  ],
  [
    /^where\.(.+?) is a list; to match any of several values write \{"(.+?)":\{"in":\[\.\.\.\]\}\}\.$/,
    (m) => `where.${m[1]} 是列表；要匹配多个值中的任意一个，请写作 {"${m[2]}":{"in":[...]}}。`,
  ],
  [
    /^where\.(.+?) has no operator\. Use one of (.+)\.$/,
    (m) => `where.${m[1]} 没有运算符，请使用以下之一：${m[2]}。`,
  ],
  [
    /^Unknown operator '(.+?)' for '(.+?)' in where\. Operators: (.+)\.$/,
    (m) => `where 中 '${m[2]}' 的运算符 '${m[1]}' 无效。可用运算符：${m[3]}。`,
  ],
  [
    /^Nothing to write: send at least one of (.+)\.$/,
    (m) => `没有要写入的内容：请至少发送以下之一：${list(m[1])}。`,
  ],
  [
    /^You cannot set '(.+?)' on (.+?) through this API\. Columns you can set: (.+?)\.(?: ?(.+))?$/,
    (m) =>
      `不能通过此 API 设置${spaced(label(m[2]))}的 '${m[1]}'。你可以设置的列：${list(m[3])}。${sentence(m[4])}`,
  ],
  [
    /^Unknown column '(.+?)' in data\. Columns you can set: (.+)\.$/,
    (m) => `data 中有未知列 '${m[1]}'。你可以设置的列：${list(m[2])}。`,
  ],
  [
    /^There is no function '(.+?)' in the data API\. Functions: (.+)\.$/,
    (m) => `数据 API 中没有函数 '${m[1]}'。可用的函数：${m[2]}。`,
  ],
  [
    /^There is no table '(.+?)' in the data API\. Tables: (.+)\.$/,
    (m) => `数据 API 中没有表 '${m[1]}'。可用的表：${m[2]}。`,
  ],
  [
    /^Please sign in to (\S+) (.+?)\.$/,
    (m) => `请登录后再${lead(lookup(VERBS, m[1]) + lead(label(m[2])))}。`,
  ],
  [
    /^You cannot (\S+) (.+?) through this API\.(?: ?(.+))?$/,
    (m) => `不能通过此 API ${lookup(VERBS, m[1])}${lead(label(m[2]))}。${sentence(m[3])}`,
  ],
  [
    /^(.+?) needs a non-empty where naming the rows, such as \{"id":"<uuid>"\}; it never changes every row at once\.$/,
    (m) => `${m[1]} 需要非空的 where 来指定要修改的行，例如 {"id":"<uuid>"}；不会一次修改所有行。`,
  ],
  [
    /^That where matches more than (\S+) (.+?); narrow it and try again\. Nothing was changed\.$/,
    (m) => `该 where 匹配的${spaced(label(m[2]))}超过 ${m[1]} 条，请缩小范围后重试。未做任何修改。`,
  ],
  [
    /^The value (.+?) for '(.+?)' in (.+?) is out of range \((.+?) to (.+?)\)\.$/,
    (m) => `${m[3]} 中 '${m[2]}' 的值 ${m[1]} 超出范围（${m[4]} 到 ${m[5]}）。`,
  ],
  [
    /^The value for '(.+?)' in (.+?) is longer than (.+?) characters\.$/,
    (m) => `${m[2]} 中 '${m[1]}' 的值超过 ${m[3]} 个字符。`,
  ],
  [
    /^The value for '(.+?)' in (.+?) contains a NUL character\.$/,
    (m) => `${m[2]} 中 '${m[1]}' 的值包含 NUL 字符。`,
  ],
  // Videos
  [/^Waiting in the queue \(position (.+?)\)$/, (m) => `排队等待中（第 ${m[1]} 位）`],
  [
    /^Waiting for the video service to start \(position (.+?)\)$/,
    (m) => `等待视频服务开始处理（第 ${m[1]} 位）`,
  ],
  [/^Your (.+?) credits have been refunded\.$/, (m) => `${m[1]} 积分已退回你的账户。`],
  [
    /^The video service's safety filter blocked this prompt or image\. Change it and try again\.(?: (.+))?$/,
    (m) => `视频服务的安全过滤器拦截了此提示词或图片，请修改后重试。${sentence(m[1])}`,
  ],
  [
    /^The video service could not make this video\. Please try again\.(?: (.+))?$/,
    (m) => `视频服务未能生成此视频，请重试。${sentence(m[1])}`,
  ],
  [
    /^The video service could not take your video right now\. Please try again later\.(?: (.+))?$/,
    (m) => `视频服务暂时无法接收你的视频，请稍后重试。${sentence(m[1])}`,
  ],
  [
    /^The video service returned a video that failed our checks \(it must play, last about (.+?) seconds and have sound\)\. Please try again\.(?: (.+))?$/,
    (m) =>
      `视频服务返回的视频未通过检查（视频须能正常播放、时长约 ${m[1]} 秒且有声音），请重试。${sentence(m[2])}`,
  ],
  [
    /^Video generation did not finish in time and was stopped\.(?: (.+))?$/,
    (m) => `视频未能按时生成完成，已被终止。${sentence(m[1])}`,
  ],
  [
    /^The prompt is too long: keep it under (.+?) characters\.$/,
    (m) => `提示词过长：请控制在 ${m[1]} 个字符以内。`,
  ],
  [
    /^Unknown model '(.+?)'\. Use '(.+?)' \(text\) or '(.+?)' \(image\)\.$/,
    (m) => `未知模型 '${m[1]}'。请使用 '${m[2]}'（文生视频）或 '${m[3]}'（图生视频）。`,
  ],
  [
    /^You already have (.+?) videos in progress\. Wait for one to finish, then try again\.$/,
    (m) => `你已有 ${m[1]} 个视频正在生成，请等其中一个完成后再试。`,
  ],
  [/^No webhooks are taken for "(.+?)"\.$/, (m) => `不接收 "${m[1]}" 的 Webhook。`],
  [
    /^Not enough credits! Generating a (.+?) video requires (.+?) credits, you currently have (.+?) credits$/,
    (m) => `积分不足！生成 ${m[1]} 视频需要 ${m[2]} 积分，你当前有 ${m[3]} 积分`,
  ],
];
