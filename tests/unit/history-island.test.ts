// @vitest-environment happy-dom
/**
 * The history island (spec 2 "History") past its numbered pages (issue 19): on the last page the
 * server numbers, "Next" follows `next_cursor` (`?cursor=…`), a cursor page offers the newest
 * videos and the next older page, and an old link deeper than the numbered pages (a 400
 * OFFSET_TOO_DEEP) lands on page 1 instead of an error. Requests are answered by a stubbed fetch.
 */
import { createElement } from 'react';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HistoryItem, HistoryResponse } from '../../server/contracts/video.ts';
import { DEFAULT_OPTIONS, toOptionsData } from '../../shared/video-options.ts';

const ORIGIN = 'http://localhost:3000';
const USER = { id: 'user-ada', email: 'ada@example.com', name: 'Ada', credits: 40 };

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const item = (id: string): HistoryItem => ({
  options: toOptionsData(DEFAULT_OPTIONS),
  source_task_id: null,
  duration_seconds: 8,
  credits_charged: 17,
  id,
  prompt: `Video ${id}`,
  model: 'veo3',
  mode: 'text',
  result_url: `/media/${id}.mp4`,
  poster_url: null,
  created_at: '2025-01-01T00:00:00.000Z',
  completed_at: '2025-01-01T00:01:00.000Z',
});

const ok = (data: HistoryResponse['data']) =>
  new Response(JSON.stringify({ success: true, data, message: 'OK' }), {
    headers: { 'content-type': 'application/json' },
  });

let fetchMock: ReturnType<typeof vi.fn<(input: Request) => Promise<Response>>>;
let root: Root | null = null;
let container: HTMLElement;

/** The history pages asked for (each card also asks the quote whether it can be extended). */
const requested = () =>
  fetchMock.mock.calls
    .map(([r]) => new URL(r.url))
    .filter((url) => url.pathname === '/api/video/history')
    .map((url) => url.search);

async function mount(search: string) {
  window.history.replaceState(null, '', `${ORIGIN}/video-history${search}`);
  vi.resetModules();
  const { default: History } = await import('../../site/islands/History.tsx');
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  await act(async () => root!.render(createElement(History)));
}

async function settle() {
  await act(async () => {
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  });
}

beforeEach(() => {
  window.localStorage.setItem('authToken', 'token-ada');
  window.localStorage.setItem('user', JSON.stringify(USER));
  fetchMock = vi.fn<(input: Request) => Promise<Response>>();
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  act(() => root?.unmount());
  root = null;
  container?.remove();
  window.localStorage.clear();
  vi.unstubAllGlobals();
});

describe('history pages past the numbered ones', () => {
  it('goes from the last numbered page to the older videos by cursor, and back to the newest', async () => {
    fetchMock.mockImplementation(async (request) => {
      const cursor = new URL(request.url).searchParams.get('cursor');
      if (cursor === 'CURSOR-1') {
        return ok({ items: [item('c')], limit: 10, next_cursor: null, has_more: false });
      }
      return ok({
        ...{ items: [item('a'), item('b')], total: 1010, total_exact: false },
        ...{ page: 101, pages: 101, limit: 10, next_cursor: 'CURSOR-1', has_more: true },
      });
    });
    await mount('?page=101');
    await settle();
    expect(requested()).toEqual(['?page=101&limit=10']);
    expect(container.querySelector('.history-total')?.textContent).toBe(
      '1,010+ videos · page 101 of 101+',
    );
    const next = [...container.querySelectorAll('a')].find((a) => a.textContent === 'Next');
    expect(next?.getAttribute('href')).toBe('/video-history?cursor=CURSOR-1');

    await act(async () => next!.click());
    await settle();
    expect(window.location.search).toBe('?cursor=CURSOR-1');
    expect(requested()).toEqual(['?page=101&limit=10', '?cursor=CURSOR-1&limit=10']);
    expect(container.textContent).toContain('Video c');
    const newest = [...container.querySelectorAll('a')].find((a) => a.textContent === 'Newest');
    expect(newest?.getAttribute('href')).toBe('/video-history');
    expect(container.querySelector('[aria-disabled="true"]')?.textContent).toBe('Next');
  });

  it('turns a link deeper than the numbered pages into page 1 rather than an error', async () => {
    // The api client logs every 4xx; this one is expected.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    fetchMock.mockImplementation(async (request) => {
      if (new URL(request.url).searchParams.get('page') === '500') {
        return new Response(
          JSON.stringify({
            success: false,
            code: 'OFFSET_TOO_DEEP',
            message:
              'Pages beyond 1,000 rows are served by cursor: pass next_cursor from the previous page as cursor.',
          }),
          { status: 400, headers: { 'content-type': 'application/json' } },
        );
      }
      return ok({
        ...{ items: [item('a')], total: 1, total_exact: true, page: 1, pages: 1, limit: 10 },
        ...{ next_cursor: null, has_more: false },
      });
    });
    await mount('?page=500');
    await settle();
    expect(window.location.search).toBe('');
    expect(requested()).toEqual(['?page=500&limit=10', '?page=1&limit=10']);
    expect(container.querySelector('[data-testid="history-error"]')).toBeNull();
    expect(container.querySelector('.history-total')?.textContent).toBe('1 video');
    expect(logged).toHaveBeenCalledTimes(1);
    logged.mockRestore();
  });
});

describe('"Extend by 7 s" on a card', () => {
  const answer = (extendable: boolean) => async (request: Request) => {
    const url = new URL(request.url);
    if (url.pathname === '/api/video/quote') {
      return extendable
        ? new Response(JSON.stringify({ success: true, data: { credits: 15 } }), {
            headers: { 'content-type': 'application/json' },
          })
        : new Response(
            JSON.stringify({ success: false, code: 'OPTION_UNSUPPORTED', message: 'No' }),
            { status: 400, headers: { 'content-type': 'application/json' } },
          );
    }
    return ok({ items: [item('a'), item('b')], limit: 10, next_cursor: null, has_more: false });
  };
  const extendLinks = () =>
    [...container.querySelectorAll('a')].filter((a) => a.textContent === 'Extend by 7 s');

  it('is offered when the route can extend a video of its shape, asked once for the page', async () => {
    fetchMock.mockImplementation(answer(true));
    await mount('');
    await settle();
    expect(extendLinks()).toHaveLength(2);
    const quotes = fetchMock.mock.calls
      .map(([r]) => new URL(r.url))
      .filter((url) => url.pathname === '/api/video/quote');
    expect(quotes).toHaveLength(1);
    expect(quotes[0]!.searchParams.get('resolution')).toBe('720p');
    expect(quotes[0]!.searchParams.get('extend_task_id')).toMatch(/^[ab]$/);
  });

  it('is not offered when no route entry can extend it', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fetchMock.mockImplementation(answer(false));
    await mount('');
    await settle();
    expect(container.textContent).toContain('Video a');
    expect(extendLinks()).toHaveLength(0);
    expect(
      [...container.querySelectorAll('a')].some(
        (a) => a.textContent === 'Generate again with these settings',
      ),
    ).toBe(true);
  });
});
