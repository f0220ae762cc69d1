// @vitest-environment happy-dom
/**
 * The admin overview's margin card (issue 37, item 5; site/islands/admin/MarginCard.tsx): the
 * totals, a loss shown as one (red, and said to screen readers), the figures it counted as $0,
 * a row per provider:model, the empty state, and the overview's Refresh reading the figures as of
 * now (`fresh=true`). Requests are answered by a stubbed fetch.
 */
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MarginFigures, MarginStatsResponse } from '../../shared/api/admin-margin.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const figures = (over: Partial<MarginFigures> = {}): MarginFigures => ({
  completed: 0,
  failed: 0,
  revenueUsd: 0,
  costUsd: 0,
  marginUsd: 0,
  marginPercent: null,
  withoutCost: 0,
  withoutRevenue: 0,
  ...over,
});

const days = ['2026-12-06', '2026-12-07'];
const ANSWER: MarginStatsResponse['data'] = {
  days: 30,
  from: '2026-11-08',
  to: '2026-12-07',
  generatedAt: '2026-12-07T12:00:00.000Z',
  series: days.map((day, i) =>
    i === 0
      ? { day, ...figures() }
      : {
          day,
          ...figures({
            completed: 3,
            failed: 1,
            revenueUsd: 2.366969,
            costUsd: 4.32,
            marginUsd: -1.953031,
            marginPercent: -82.5,
          }),
        },
  ),
  models: [
    {
      provider: 'gemini',
      model: 'gemini-omni-1.2-flash',
      ...figures({
        completed: 2,
        failed: 1,
        revenueUsd: 1.690369,
        costUsd: 1.12,
        marginUsd: 0.570369,
        marginPercent: 33.7,
      }),
    },
    {
      provider: 'fal',
      model: 'fal-ai/veo3.1',
      ...figures({
        completed: 1,
        revenueUsd: 0.6766,
        costUsd: 3.2,
        marginUsd: -2.5234,
        marginPercent: -373,
        withoutCost: 1,
      }),
    },
  ],
  totals: figures({
    completed: 3,
    failed: 1,
    revenueUsd: 2.366969,
    costUsd: 4.32,
    marginUsd: -1.953031,
    marginPercent: -82.5,
    withoutCost: 1,
  }),
};

let fetchMock: ReturnType<typeof vi.fn<(input: Request) => Promise<Response>>>;
let root: Root | null = null;
let container: HTMLElement;
let answer = ANSWER;

const requested = () =>
  fetchMock.mock.calls
    .map(([r]) => new URL(r.url))
    .filter((url) => url.pathname === '/api/admin/stats/margin')
    .map((url) => url.search);

async function settle() {
  await act(async () => {
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  });
}

async function mount(refreshed: unknown) {
  const { default: MarginCard } = await import('../../site/islands/admin/MarginCard.tsx');
  await act(async () => root!.render(createElement(MarginCard, { refreshed })));
  await settle();
}

beforeEach(() => {
  window.history.replaceState(null, '', 'http://localhost:3000/admin');
  answer = ANSWER;
  fetchMock = vi.fn<(input: Request) => Promise<Response>>(
    async () =>
      new Response(JSON.stringify({ success: true, data: answer }), {
        headers: { 'content-type': 'application/json' },
      }),
  );
  vi.stubGlobal('fetch', fetchMock);
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});

afterEach(() => {
  act(() => root?.unmount());
  root = null;
  container.remove();
  vi.unstubAllGlobals();
});

const text = (el: Element | null | undefined) => el?.textContent?.replace(/\s+/g, ' ').trim();

describe('the margin card', () => {
  it('shows the totals, the loss as a loss, what it counted as $0, and a row per provider:model', async () => {
    await mount(1);
    expect(requested()).toEqual(['?days=30']);
    const facts = [...container.querySelectorAll('.admin-facts > div')].map(text);
    expect(facts).toEqual([
      'Completed3',
      'Failed (refunded)1',
      'Revenue$2.37',
      'Provider cost$4.32',
      'Margin-$1.95 (-82.5 %) loss',
    ]);
    expect(container.querySelector('.admin-facts .admin-text-bad')).not.toBeNull();
    expect(container.textContent).toContain(
      'Counted as $0: 1 finished without a recorded provider cost.',
    );
    const rows = [...container.querySelectorAll('[data-testid="admin-margin-model"]')];
    expect(rows.map((row) => text(row.querySelector('code')))).toEqual([
      'gemini:gemini-omni-1.2-flash',
      'fal:fal-ai/veo3.1',
    ]);
    expect(text(rows[0]!.lastElementChild)).toBe('$0.57 (33.7 %)');
    expect(rows[0]!.querySelector('.admin-text-bad')).toBeNull();
    expect(text(rows[1]!.lastElementChild)).toBe('-$2.52 (-373 %) loss');
    // Both charts are named by their totals.
    const charts = [...container.querySelectorAll('svg[role="img"]')];
    expect(charts.map((svg) => svg.getAttribute('aria-label'))).toEqual([
      'Revenue per day, last 30 days: total $2.37',
      'Provider cost per day, last 30 days: total $4.32',
    ]);
  });

  it("reads the figures as of now when the overview's Refresh brings a new answer", async () => {
    await mount(1);
    await mount(1);
    expect(requested()).toEqual(['?days=30']);
    await mount(2);
    expect(requested()).toEqual(['?days=30', '?days=30&fresh=true']);
  });

  it('says so when no video finished', async () => {
    answer = { ...ANSWER, series: [], models: [], totals: figures() };
    await mount(1);
    expect(text(container.querySelector('[data-testid="admin-margin-empty"]'))).toBe(
      'No video finished in the last 30 days. Revenue, cost and margin fill in as customers generate videos.',
    );
  });
});
