/**
 * Prices and products for the Stripe fake. It has no catalogue: prices and products are made
 * inline from a session's `line_items[][price_data]`, as archived objects.
 */
import { invalid, missingParam, noSuch } from './errors.ts';
import {
  checkKeys,
  isFormObject,
  paramPath,
  readArray,
  readEnum,
  readHash,
  readInt,
  readMetadata,
  readString,
  type FormValue,
  type Json,
} from './form.ts';
import { newId, nowSeconds } from './ids.ts';
import { INTERVALS, type LineItemState, type PriceState, type SessionState } from './state.ts';

const LINE_ITEM_PARAMS = [
  'adjustable_quantity',
  'metadata',
  'price',
  'price_data',
  'quantity',
  'tax_rates',
];
const LINE_ITEM_IMPLEMENTED = ['metadata', 'price', 'price_data', 'quantity'];
// prettier-ignore
const PRICE_DATA_PARAMS = [
  'currency', 'product', 'product_data', 'recurring', 'tax_behavior', 'unit_amount',
  'unit_amount_decimal',
];
const PRICE_DATA_IMPLEMENTED = [
  'currency',
  'product',
  'product_data',
  'recurring',
  'tax_behavior',
  'unit_amount',
];
const PRODUCT_DATA_PARAMS = [
  'description',
  'images',
  'metadata',
  'name',
  'tax_code',
  'tax_details',
  'unit_label',
];
const PRODUCT_DATA_IMPLEMENTED = ['description', 'images', 'metadata', 'name'];

export function renderPrice(p: PriceState): Json {
  return {
    id: p.id,
    object: 'price',
    active: p.active ?? false, // price_data creates an inline, archived price
    billing_scheme: 'per_unit',
    created: p.created,
    currency: p.currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: p.lookupKey ?? null,
    metadata: { ...p.metadata },
    nickname: null,
    product: p.productId,
    recurring: p.recurring
      ? {
          interval: p.recurring.interval,
          interval_count: p.recurring.intervalCount,
          meter: null,
          trial_period_days: null,
          usage_type: 'licensed',
        }
      : null,
    tax_behavior: p.taxBehavior,
    tiers_mode: null,
    transform_quantity: null,
    type: p.recurring ? 'recurring' : 'one_time',
    unit_amount: p.unitAmount,
    unit_amount_decimal: String(p.unitAmount),
  };
}

export function renderPlan(p: PriceState): Json {
  return {
    id: p.id,
    object: 'plan',
    active: false,
    amount: p.unitAmount,
    amount_decimal: String(p.unitAmount),
    billing_scheme: 'per_unit',
    created: p.created,
    currency: p.currency,
    interval: p.recurring?.interval ?? 'month',
    interval_count: p.recurring?.intervalCount ?? 1,
    livemode: false,
    metadata: {},
    meter: null,
    nickname: null,
    product: p.productId,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: 'licensed',
  };
}

export function parseLineItems(raw: FormValue[], mode: SessionState['mode']): LineItemState[] {
  const now = nowSeconds();
  return raw.map((value, index) => {
    const prefix = `line_items[${index}]`;
    if (!isFormObject(value)) throw invalid('Invalid object', prefix);
    checkKeys(value, prefix, LINE_ITEM_PARAMS, LINE_ITEM_IMPLEMENTED);
    const priceId = readString(value, 'price', prefix);
    const priceData = readHash(value, 'price_data', prefix);
    if (priceId !== undefined && priceData !== undefined) {
      throw invalid(`You may only specify one of these parameters: price, price_data.`, prefix);
    }
    // The fake has no product catalogue: every stored price id is unknown.
    if (priceId !== undefined) throw noSuch('price', priceId, paramPath(prefix, 'price'));
    if (priceData === undefined) {
      throw invalid(
        `You must specify either \`price\` or \`price_data\` in \`${prefix}\`.`,
        prefix,
      );
    }
    const pdPrefix = paramPath(prefix, 'price_data');
    checkKeys(priceData, pdPrefix, PRICE_DATA_PARAMS, PRICE_DATA_IMPLEMENTED);
    const currency = readString(priceData, 'currency', pdPrefix);
    if (currency === undefined) throw missingParam(paramPath(pdPrefix, 'currency'));
    if (!/^[a-z]{3}$/i.test(currency)) {
      throw invalid(
        `Invalid currency: ${currency.toLowerCase()}.`,
        paramPath(pdPrefix, 'currency'),
      );
    }
    const unitAmount = readInt(priceData, 'unit_amount', pdPrefix, 0);
    if (unitAmount === undefined) throw missingParam(paramPath(pdPrefix, 'unit_amount'));
    const product = readString(priceData, 'product', pdPrefix);
    const productData = readHash(priceData, 'product_data', pdPrefix);
    if (product !== undefined) throw noSuch('product', product, paramPath(pdPrefix, 'product'));
    if (productData === undefined) {
      throw invalid(
        'You must specify either `product` or `product_data` when creating a price.',
        pdPrefix,
      );
    }
    const prodPrefix = paramPath(pdPrefix, 'product_data');
    checkKeys(productData, prodPrefix, PRODUCT_DATA_PARAMS, PRODUCT_DATA_IMPLEMENTED);
    const name = readString(productData, 'name', prodPrefix);
    if (name === undefined) throw missingParam(paramPath(prodPrefix, 'name'));
    readString(productData, 'description', prodPrefix);
    readMetadata(productData, 'metadata', prodPrefix);
    readArray(productData, 'images', prodPrefix);
    const taxBehavior =
      readEnum(priceData, 'tax_behavior', pdPrefix, ['exclusive', 'inclusive', 'unspecified']) ??
      'unspecified';
    const recurringRaw = readHash(priceData, 'recurring', pdPrefix);
    let recurring: PriceState['recurring'] = null;
    if (recurringRaw !== undefined) {
      const rPrefix = paramPath(pdPrefix, 'recurring');
      checkKeys(
        recurringRaw,
        rPrefix,
        ['interval', 'interval_count'],
        ['interval', 'interval_count'],
      );
      const interval = readEnum(recurringRaw, 'interval', rPrefix, INTERVALS);
      if (interval === undefined) throw missingParam(paramPath(rPrefix, 'interval'));
      const intervalCount = readInt(recurringRaw, 'interval_count', rPrefix, 1) ?? 1;
      const maxCount = { day: 1095, week: 156, month: 36, year: 3 }[interval];
      if (intervalCount > maxCount) {
        throw invalid(
          'The maximum billing interval is 3 years.',
          paramPath(rPrefix, 'interval_count'),
        );
      }
      recurring = { interval, intervalCount };
    }
    if (recurring && mode === 'payment') {
      throw invalid(
        'You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.',
        paramPath(pdPrefix, 'recurring'),
      );
    }
    const quantity = readInt(value, 'quantity', prefix, 0);
    if (quantity === undefined) {
      throw invalid(
        `Quantity is required. Add \`quantity\` to \`${prefix}\``,
        paramPath(prefix, 'quantity'),
      );
    }
    if (quantity < 1 || quantity > 999_999) {
      throw invalid('Quantity must be between 1 and 999999.', paramPath(prefix, 'quantity'));
    }
    readMetadata(value, 'metadata', prefix);
    return {
      id: newId('li'),
      quantity,
      description: name,
      price: {
        id: newId('price'),
        productId: newId('prod', 14),
        productName: name,
        currency: currency.toLowerCase(),
        unitAmount,
        recurring,
        taxBehavior,
        created: now,
      },
    };
  });
}
