/**
 * The Chinese of the API's messages (server/core/api-language.ts). Keys are the English sentences
 * exactly as the services write them; a sentence with values in it is matched by a pattern
 * (server/core/api-message-patterns-zh.ts, re-exported here).
 */
export { API_MESSAGE_PATTERNS_ZH } from './api-message-patterns-zh.ts';

/** English sentence → Chinese. */
export const API_MESSAGES_ZH: Readonly<Record<string, string>> = {
  // Sessions and sign-in (server/core/auth.ts)
  'Identity headers were sent without a valid session. Please sign in again.':
    '请求带有身份请求头，但没有有效的会话。请重新登录。',
  'The x-user-id header does not match your session. Please sign in again.':
    'x-user-id 请求头与你的会话不符，请重新登录。',
  'The x-user-email header does not match your session. Please sign in again.':
    'x-user-email 请求头与你的会话不符，请重新登录。',
  'Please sign in to continue.': '请先登录再继续。',
  'This action needs an administrator session.': '此操作需要以管理员身份登录。',
  // Requests, uploads and addresses (server/core)
  'Something went wrong on our side. Please try again in a moment.':
    '我们这边出了点问题，请稍后再试。',
  'The form has too many fields or files: send one file and only the fields it asks for.':
    '表单中的字段或文件过多：请只发送一个文件及其所需的字段。',
  'Unsupported content type. Send JSON (application/json), or multipart/form-data for uploads.':
    '不支持的内容类型。请发送 JSON（application/json），上传文件请使用 multipart/form-data。',
  'The request body is not valid JSON.': '请求体不是有效的 JSON。',
  'The request body is empty; send a JSON object.': '请求体为空，请发送一个 JSON 对象。',
  'The request body is too large. Send less data (images go through the upload form).':
    '请求体过大。请减少发送的数据（图片请通过上传表单提交）。',
  'The Content-Length header does not match the body that was sent.':
    'Content-Length 请求头与实际发送的请求体不符。',
  'The image is larger than 10MB. Please choose a smaller image.':
    '图片超过 10MB，请选择更小的图片。',
  "A form field is named after a reserved property (such as '__proto__'); rename it.":
    "有表单字段使用了保留的属性名（如 '__proto__'），请重命名。",
  'Send this form as multipart/form-data.': '请以 multipart/form-data 格式发送此表单。',
  'A form field sent as application/json is not valid JSON.':
    '以 application/json 发送的表单字段不是有效的 JSON。',
  'This file address is not allowed. Check the link.': '不允许访问此文件地址，请检查链接。',
  'The upload ended before the form was complete. Please try again.':
    '表单尚未传完，上传就中断了，请重试。',
  'The request could not be understood. Check the address and the data you sent.':
    '无法理解此请求，请检查地址和发送的数据。',
  'This address cannot be opened. Check the link.': '无法打开此地址，请检查链接。',
  'There is nothing at this address. Check the link.': '此地址没有内容，请检查链接。',
  'This method is not allowed at this address.': '此地址不支持该请求方法。',
  'The file changed since you last loaded it. Reload and try again.':
    '文件在你上次加载后已更改，请刷新后重试。',
  'The requested byte range is outside the file. Reload and try again.':
    '请求的字节范围超出了文件大小，请刷新后重试。',
  'Too many requests. Please wait a minute and try again.': '请求过于频繁，请等待一分钟后重试。',
  'The request was refused.': '请求被拒绝。',
  'A part of the address is too long. Check the link.': '地址中有部分过长，请检查链接。',
  'The address contains a malformed %-escape. Check the link.':
    '地址中含有格式错误的 % 转义序列，请检查链接。',
  'The server is processing many images right now. Please try again in a few seconds.':
    '服务器正在处理大量图片，请几秒后重试。',
  'The image could not be read. Please upload another JPEG, PNG, GIF or WebP image.':
    '无法读取该图片，请上传其他 JPEG、PNG、GIF 或 WebP 图片。',
  'A valid metrics token is required.': '需要有效的监控指标（metrics）令牌。',
  'The request body is not valid UTF-8 text. Send JSON encoded as UTF-8.':
    '请求体不是有效的 UTF-8 文本，请发送 UTF-8 编码的 JSON。',
  'Text in the request body contains a NUL character (\\u0000), which cannot be stored. Remove it and try again.':
    '请求体中的文本包含无法存储的 NUL 字符（\\u0000），请删除后重试。',
  'The address contains a NUL character (%00), which is never valid here. Check the link.':
    '地址中包含 NUL 字符（%00），此处不允许使用，请检查链接。',
  'The upload could not be read. Please try again.': '无法读取上传的内容，请重试。',
  'Please select a valid image file (JPEG, PNG, GIF, WebP)':
    '请选择有效的图片文件（JPEG、PNG、GIF、WebP）',
  // Accounts (server/domains/accounts)
  'This confirmation link is invalid, expired or already used. Sign up again with the same email to get a new link, or sign in if you already confirmed it.':
    '此确认链接无效、已过期或已被使用。请用同一邮箱重新注册以获取新链接；如果你已完成确认，请直接登录。',
  'An account with this email already exists. Sign in instead, or reset your password.':
    '该邮箱已注册账户。请直接登录，或重置密码。',
  'Almost done: we have sent a link to your email address. Open it to confirm the address and finish signing up.':
    '就差一步：我们已向你的邮箱发送了一个链接，打开它即可确认邮箱并完成注册。',
  'Invalid email or password.': '邮箱或密码错误。',
  'Confirm your email address first: we have sent you a new link. Open it to finish signing in.':
    '请先确认你的邮箱地址：我们已向你发送新的链接，打开它即可完成登录。',
  'This reset link is invalid, expired or already used. Ask for a new one.':
    '此重置链接无效、已过期或已被使用，请重新申请。',
  'Google sign-in failed: the sign-in token is not valid. Please sign in again.':
    'Google 登录失败：登录令牌无效，请重新登录。',
  'Google sign-in failed: the token has expired. Please sign in again.':
    'Google 登录失败：令牌已过期，请重新登录。',
  'Google sign-in failed: the token was issued for another app. Please sign in again from this site.':
    'Google 登录失败：该令牌是为其他应用签发的，请在本网站重新登录。',
  'Your Google account email is not verified. Verify it with Google, then sign in again.':
    '你的 Google 账户邮箱尚未验证。请先在 Google 完成验证，然后重新登录。',
  'Google sign-in is unavailable right now. Please try again in a minute.':
    'Google 登录暂时不可用，请一分钟后重试。',
  'Google sign-in is not set up on this server. Use the sign-in form, or ask the administrator to set GOOGLE_CLIENT_ID.':
    '此服务器未配置 Google 登录。请使用登录表单，或请管理员设置 GOOGLE_CLIENT_ID。',
  'If an account exists for that email, we have sent a link to reset its password.':
    '如果该邮箱已注册账户，我们已发送重置密码的链接。',
  'Your password has been changed. Please sign in.': '你的密码已修改，请登录。',
  'Signed out.': '已退出登录。',
  'An account with this email is already linked to another Google account. Sign in with that Google account instead.':
    '该邮箱的账户已关联另一个 Google 账户，请改用那个 Google 账户登录。',
  "Send the Google 'credential' or 'token'.": "请发送 Google 的 'credential' 或 'token'。",
  // Administration (server/domains/admin, shared/admin.ts)
  'There is no customer account with that id.': '没有该 id 对应的客户账户。',
  'Give a reason of at least 3 characters.': '请填写至少 3 个字符的原因。',
  'There is no video task with that id.': '没有该 id 对应的视频任务。',
  'This task was never charged, so there is nothing to refund.': '此任务从未扣费，无需退款。',
  'This task was already refunded.': '此任务已退款。',
  "Pass either 'cursor' or 'offset', not both: the cursor already says where the page starts.":
    "'cursor' 和 'offset' 只能传一个：cursor 已经指明了该页的起始位置。",
  'Signed out of the admin session.': '已退出管理员会话。',
  'Add the status password: /api/admin/status?password=…':
    '请附上状态页密码：/api/admin/status?password=…',
  'Wrong username or password.': '用户名或密码错误。',
  'No admin account is configured on this server. Set ADMIN_USERNAME and ADMIN_PASSWORD_HASH (see the README).':
    '此服务器未配置管理员账户。请设置 ADMIN_USERNAME 和 ADMIN_PASSWORD_HASH（参见 README）。',
  // Billing (server/domains/billing, shared/billing.ts)
  'Your payment for a plan is still being processed. Wait until it completes before choosing another plan.':
    '你的套餐付款仍在处理中，请等待完成后再选择其他套餐。',
  'Another plan checkout was opened for your account a moment ago. Finish it there, or try again.':
    '你的账户刚刚打开了另一个套餐结账页面，请在那里完成付款，或重试。',
  'No checkout with that id belongs to you.': '你没有该 id 对应的结账记录。',
  'This checkout does not exist.': '此结账不存在。',
  'This checkout is already paid, so there is nothing to cancel. Your purchase is in your account.':
    '此结账已付款，无法取消。你购买的内容已在你的账户中。',
  "Choose a plan: 'plan_id' is required for a subscription.":
    "请选择套餐：订阅需要提供 'plan_id'。",
  "Choose a credit pack: 'package_id' is required.": "请选择积分包：需要提供 'package_id'。",
  'You have no active subscription to cancel.': '你没有可取消的有效订阅。',
  'Your subscription has been cancelled. Your remaining credits stay in your account.':
    '你的订阅已取消，剩余积分仍保留在你的账户中。',
  'Missing the Stripe-Signature header.': '缺少 Stripe-Signature 请求头。',
  'The Stripe signature is invalid or too old.': 'Stripe 签名无效或已过期。',
  'Please login before purchasing': '购买前请先登录',
  'You already have an active subscription. Please cancel it first to switch plans.':
    '你已有生效中的订阅。如需切换套餐，请先取消当前订阅。',
  // Blog (server/domains/blog, shared/blog.ts)
  'Article created successfully': '文章创建成功',
  'Article updated successfully': '文章更新成功',
  'Article deleted successfully': '文章删除成功',
  'Image uploaded successfully': '图片上传成功',
  'Title is required.': '请填写标题。',
  'Content is required.': '请填写内容。',
  'That article does not exist.': '该文章不存在。',
  'Other articles with this title were saved at the same moment. Save again.':
    '有其他同标题的文章在同一时刻保存，请再保存一次。',
  'Article not found': '文章不存在',
  'An article cannot be a translation of itself. Choose another article or none.':
    '文章不能是它自己的译文。请选择另一篇文章，或选择“无”。',
  'The article this one should translate does not exist (it may have been deleted). Choose another article or none.':
    '要翻译的原文不存在（可能已被删除）。请选择另一篇文章，或选择“无”。',
  'A translation must be in another language than the article it translates. Change the language or choose another article.':
    '译文的语言必须与原文不同。请更改语言，或选择另一篇文章。',
  'That article is itself a translation. Choose the original article it translates instead.':
    '那篇文章本身就是译文。请改为选择它所翻译的原文。',
  'This article has translations of its own, so it cannot also be a translation. Unlink its translations first.':
    '这篇文章已有自己的译文，因此不能同时作为译文。请先取消与这些译文的关联。',
  'That article already has a translation in this language. Edit that translation, or unlink it first.':
    '那篇文章已有这种语言的译文。请编辑该译文，或先取消关联。',
  'This article already has a translation in the language you chose, so it cannot be written in it too. Choose another language or unlink that translation.':
    '这篇文章已有你所选语言的译文，因此它本身不能再使用该语言。请选择其他语言，或取消与该译文的关联。',
  'You do not have blog management permissions': '你没有博客管理权限',
  "'featured_image' must be an http:// or https:// address or an image uploaded here (/uploads/blog/…). Upload the image or paste its web address.":
    "'featured_image' 必须是 http:// 或 https:// 地址，或是上传到本站的图片（/uploads/blog/…）。请上传图片或粘贴图片的网址。",
  // Credits and the data API (server/domains/credits, server/domains/data-api)
  'You can only read your own credit history.': '你只能查看自己的积分记录。',
  'This source was already used for another account. Name a new source for this change.':
    '此来源已用于另一个账户，请为本次变更指定新的来源。',
  'That user does not exist.': '该用户不存在。',
  'where is not valid JSON. Send an object such as {"status":"completed"}.':
    'where 不是有效的 JSON，请发送一个对象，例如 {"status":"completed"}。',
  'where must be a JSON object such as {"status":"completed"}, not a list or a single value.':
    'where 必须是 JSON 对象（例如 {"status":"completed"}），不能是列表或单个值。',
  'Please sign in to see your credit summary.': '请登录后查看你的积分概览。',
  'You can only see your own credit summary.': '你只能查看自己的积分概览。',
  "An administrator session has no credits of its own; pass user_id to see a customer's.":
    '管理员会话本身没有积分；如需查看客户的积分概览，请传入 user_id。',
  'Send either cursor or offset, not both: cursor already says where the page starts.':
    'cursor 和 offset 只能传一个：cursor 已经指明了该页的起始位置。',
  // Videos (server/domains/video, server/domains/site-build, shared/video.ts)
  'This sample video is still being prepared. Try again in a minute.':
    '此示例视频仍在准备中，请一分钟后重试。',
  'Waiting in the queue': '排队等待中',
  'The video service is busy. Your video starts as soon as it has room; no need to resubmit.':
    '视频服务繁忙。一有空闲就会开始生成你的视频，无需重新提交。',
  'Waiting for the video service to start': '等待视频服务开始处理',
  'Generating video': '正在生成视频',
  'The video service had a hiccup. Retrying shortly.': '视频服务出现短暂故障，即将重试。',
  'Saving video': '正在保存视频',
  'Resuming shortly': '即将继续',
  'Video ready': '视频已生成',
  Failed: '失败',
  'Send the form as multipart/form-data with the fields prompt, model and image.':
    '请以 multipart/form-data 格式发送表单，包含 prompt、model 和 image 字段。',
  'Too many form fields or files: send prompt, model and one image.':
    '表单字段或文件过多：请只发送 prompt、model 和一张图片。',
  'Video generation started': '视频已开始生成',
  'Send either cursor or page, not both: cursor already says where the page starts.':
    'cursor 和 page 只能传一个：cursor 已经指明了该页的起始位置。',
  OK: '成功',
  'No video task with that id belongs to you.': '你没有该 id 对应的视频任务。',
  'The webhook signature did not verify (wrong key, altered body or too old).':
    'Webhook 签名校验失败（密钥错误、请求体被改动或已过期）。',
  'Please login first': '请先登录',
  'Please enter a prompt': '请输入提示词',
  'Image to Video mode requires an image. Please upload an image.':
    '图生视频模式需要图片，请上传一张图片。',
  'Please login before generating a video': '生成视频前请先登录',
};
