/**
 * Post slugs (spec 5 "Slug preview"). Pure and dependency-free because the same function runs in
 * the editor's URL preview (browser island) and on the server when a post is saved, so the preview
 * always shows the URL the server will store.
 */
/** Longest slug we store or preview (spec 5: truncated to 100 characters). */
export const SLUG_MAX_LENGTH = 100;

/** What an empty or all-symbol title becomes (spec 5). */
export const FALLBACK_SLUG = 'untitled-post';

/**
 * Spec 5: "a set of common Chinese words transliterated to pinyin". The words this blog's titles
 * use most (video making, AI, how-to), each as one toneless pinyin word. Chinese characters that
 * are not part of one of these words are dropped with the other non-word characters; add a word
 * here to keep it in slugs.
 */
export const CHINESE_WORDS: Readonly<Record<string, string>> = {
  人工智能: 'rengongzhineng',
  短视频: 'duanshipin',
  提示词: 'tishici',
  视频: 'shipin',
  生成: 'shengcheng',
  教程: 'jiaocheng',
  指南: 'zhinan',
  技巧: 'jiqiao',
  创作: 'chuangzuo',
  制作: 'zhizuo',
  智能: 'zhineng',
  模型: 'moxing',
  文本: 'wenben',
  文字: 'wenzi',
  图片: 'tupian',
  图像: 'tuxiang',
  动画: 'donghua',
  特效: 'texiao',
  效果: 'xiaoguo',
  音频: 'yinpin',
  音乐: 'yinyue',
  声音: 'shengyin',
  镜头: 'jingtou',
  剪辑: 'jianji',
  电影: 'dianying',
  高清: 'gaoqing',
  创意: 'chuangyi',
  设计: 'sheji',
  营销: 'yingxiao',
  入门: 'rumen',
  新手: 'xinshou',
  免费: 'mianfei',
  在线: 'zaixian',
  工具: 'gongju',
  功能: 'gongneng',
  更新: 'gengxin',
  发布: 'fabu',
  最新: 'zuixin',
  如何: 'ruhe',
  使用: 'shiyong',
  方法: 'fangfa',
  案例: 'anli',
  分享: 'fenxiang',
  对比: 'duibi',
  评测: 'pingce',
  推荐: 'tuijian',
  博客: 'boke',
  产品: 'chanpin',
  接吻: 'jiewen',
  拥抱: 'yongbao',
};

// Longest words first, so 人工智能 is read as one word and not as 人工 + 智能.
const CHINESE_WORDS_RE = new RegExp(
  Object.keys(CHINESE_WORDS)
    .sort((a, b) => b.length - a.length)
    .join('|'),
  'g',
);

/** Cuts to `max` characters without leaving a hyphen dangling at the end. */
function truncateSlug(slug: string, max: number): string {
  return slug.slice(0, max).replace(/-+$/, '');
}

/**
 * Title → URL slug, the rule of spec 5 step by step: lower-case; the Chinese words of
 * CHINESE_WORDS become their pinyin, each as its own word (spaced, so "AI视频指南" → "ai-shipin-
 * zhinan" rather than one run "aishipinzhinan"); every character other than a word character,
 * whitespace or hyphen is removed (not replaced: "what's" → "whats"). "Word character" is
 * JavaScript's `\w`, A-Z, a-z, 0-9 and underscore, so other Chinese characters, accented letters
 * (é, ß), full-width letters and emoji are removed too ("Café" → "caf"). Runs of whitespace,
 * underscores and hyphens become one hyphen; edges trimmed; at most 100 characters, with no hyphen
 * left at the cut; 'untitled-post' when nothing is left.
 */
export function slugify(title: string): string {
  const slug = title
    .toLowerCase()
    .replace(CHINESE_WORDS_RE, (word) => ` ${CHINESE_WORDS[word] ?? ''} `)
    .replace(/[^\w\s-]/g, '')
    .replace(/[\s_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return truncateSlug(slug, SLUG_MAX_LENGTH) || FALLBACK_SLUG;
}

// A `taken` predicate that never says no would otherwise spin forever.
const MAX_SUFFIX = 100_000;

/**
 * The start every candidate of `uniqueSlug(base)` shares: `base` cut for the longest suffix. A
 * long base is cut shorter for `-2`, `-3`…, so the slugs it may collide with are found by this
 * prefix, not by `base` itself.
 */
export function slugStem(base: string): string {
  const root = truncateSlug(base, SLUG_MAX_LENGTH) || FALLBACK_SLUG;
  return truncateSlug(root, SLUG_MAX_LENGTH - `-${MAX_SUFFIX}`.length) || FALLBACK_SLUG;
}

/**
 * First free slug among `base`, `base-2`, `base-3`…, shortening `base` so the suffixed slug stays
 * within SLUG_MAX_LENGTH. `base` is expected to come from `slugify`.
 */
export function uniqueSlug(base: string, taken: (slug: string) => boolean): string {
  const root = truncateSlug(base, SLUG_MAX_LENGTH) || FALLBACK_SLUG;
  if (!taken(root)) return root;
  for (let n = 2; n <= MAX_SUFFIX; n++) {
    const suffix = `-${n}`;
    const candidate = `${truncateSlug(root, SLUG_MAX_LENGTH - suffix.length) || FALLBACK_SLUG}${suffix}`;
    if (!taken(candidate)) return candidate;
  }
  throw new Error(`No free slug for "${root}" after ${MAX_SUFFIX} attempts`);
}
