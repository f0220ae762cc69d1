/**
 * The catalogue as the pricing page shows it in a language: prices, credits and ids from
 * content/plans.json (shared/billing.ts, the one source the server charges by), the plans'
 * features and the packs' descriptions from content/zh-CN/plans.json for Chinese, their numbers
 * filled from the catalogue and the video cost (shared/plan-copy.ts). A plan or pack
 * without its Chinese text fails the build, so none shows in English on the Chinese page.
 */
import plansZh from '../../content/zh-CN/plans.json' with { type: 'json' };
import { PACKS, PLANS, type CreditPack, type Plan } from '../../shared/billing.ts';
import { itemCopy } from '../../shared/plan-copy.ts';
import type { Locale } from '../i18n/locales.ts';

interface CatalogueText {
  plans: { id: string; features: string[] }[];
  packs: { id: string; description: string }[];
}

function byId<T extends { id: string }>(entries: readonly T[], id: string): T {
  const entry = entries.find((e) => e.id === id);
  if (!entry) throw new Error(`content/zh-CN/plans.json: no text for "${id}".`);
  return entry;
}

function translatedPlans(text: CatalogueText): Plan[] {
  return PLANS.map((plan) => {
    const { features } = byId(text.plans, plan.id);
    if (features.length !== plan.features.length) {
      throw new Error(
        `content/zh-CN/plans.json: "${plan.id}" needs ${plan.features.length} features.`,
      );
    }
    return { ...plan, features: features.map((feature) => itemCopy(feature, plan)) };
  });
}

const translatedPacks = (text: CatalogueText): CreditPack[] =>
  PACKS.map((pack) => ({
    ...pack,
    description: itemCopy(byId(text.packs, pack.id).description, pack),
  }));

const PLANS_ZH = translatedPlans(plansZh);
const PACKS_ZH = translatedPacks(plansZh);

/** The plans, with their features in the language. */
export const plansFor = (locale: Locale): readonly Plan[] =>
  locale === 'zh-CN' ? PLANS_ZH : PLANS;

/** The credit packs, with their descriptions in the language. */
export const packsFor = (locale: Locale): readonly CreditPack[] =>
  locale === 'zh-CN' ? PACKS_ZH : PACKS;
