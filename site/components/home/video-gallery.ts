/**
 * The home gallery's custom element (<video-gallery>, Gallery.astro): builds each shown card's
 * frame as the card nears the viewport, and adds the category filter and 'More Videos' over the
 * server-rendered cards, with the pure rules of site/lib/gallery.ts.
 */
import {
  FILTER_RESET_VISIBLE,
  hasMore,
  INITIAL_VISIBLE,
  MORE_STEP,
  toFilter,
  visibleEntries,
  entriesInFilter,
  type GalleryCategory,
  type GalleryFilter,
} from '../../lib/gallery.ts';

interface Card {
  category: GalleryCategory;
  element: HTMLElement;
}

/**
 * How far outside the viewport a shown card's frame is built: about a third of a phone's screen
 * ahead of the scroll, so the frame has started loading when the card comes into view, while the
 * first screen (the hero) loads with no frame at all.
 */
const FRAME_MARGIN = '300px 0px';

/**
 * A card's frame kept in <noscript> (with scripting on, its content is text) becomes a real
 * frame. The markup is this page's own, rendered at build.
 */
function materializeFrame(card: HTMLElement) {
  const deferred = card.querySelector('noscript.gallery__deferred');
  if (deferred) {
    deferred.insertAdjacentHTML('afterend', deferred.textContent ?? '');
    deferred.remove();
  }
  // The loading fallback's 3 s start now (Gallery.astro's styles).
  delete card.dataset.waiting;
}

/** Filter and 'More Videos' over the server-rendered cards; toggles `hidden`. */
class VideoGallery extends HTMLElement {
  #cards: Card[] = [];
  #filter: GalleryFilter = 'All';
  #count = INITIAL_VISIBLE;

  /** Builds the frame of a shown card that nears the viewport (a hidden card never intersects). */
  #frames = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        this.#frames.unobserve(entry.target);
        materializeFrame(entry.target as HTMLElement);
      }
    },
    { rootMargin: FRAME_MARGIN },
  );

  connectedCallback() {
    this.#cards = [...this.querySelectorAll<HTMLElement>('.gallery__card')].map((element) => ({
      category: element.dataset.category as GalleryCategory,
      element,
    }));
    for (const { element } of this.#cards) {
      if (!element.querySelector('noscript.gallery__deferred')) continue;
      element.dataset.waiting = '';
      this.#frames.observe(element);
    }
    this.addEventListener('click', this.#onClick);
  }

  disconnectedCallback() {
    this.#frames.disconnect();
    this.removeEventListener('click', this.#onClick);
  }

  #onClick = (event: Event) => {
    const button = (event.target as Element).closest('button');
    if (!button || !this.contains(button)) return;
    if (button.dataset.filter !== undefined) {
      // Spec: changing the filter resets the visible count to 4.
      this.#filter = toFilter(button.dataset.filter);
      this.#count = FILTER_RESET_VISIBLE;
    } else if (button.classList.contains('gallery__more')) {
      this.#count += MORE_STEP;
    } else {
      return;
    }
    this.#render();
  };

  #render() {
    const shown = new Set(visibleEntries(this.#cards, this.#filter, this.#count));
    for (const card of this.#cards) {
      card.element.hidden = !shown.has(card);
    }
    for (const button of this.querySelectorAll<HTMLButtonElement>('[data-filter]')) {
      button.setAttribute('aria-pressed', String(button.dataset.filter === this.#filter));
    }
    const total = entriesInFilter(this.#cards, this.#filter).length;
    const status = this.querySelector<HTMLElement>('.gallery__status')!;
    status.textContent = this.#statusText(shown.size, total);
    status.toggleAttribute('data-empty', total === 0);
    this.querySelector<HTMLButtonElement>('.gallery__more')!.hidden = !hasMore(
      this.#cards,
      this.#filter,
      this.#count,
    );
  }

  /**
   * The status line in the page's language: Gallery.astro renders its templates (galleryStatus's
   * messages with `{shown}`, `{total}`, `{category}` left in) so this script carries no messages.
   */
  #statusText(shown: number, total: number): string {
    const { statusAll = '', statusCategory = '', statusEmpty = '' } = this.dataset;
    if (total === 0) return statusEmpty;
    const button = this.querySelector<HTMLElement>(`[data-filter="${this.#filter}"]`);
    const values: Record<string, string> = {
      shown: String(shown),
      total: String(total),
      category: button?.textContent?.trim() ?? this.#filter,
    };
    const template = this.#filter === 'All' ? statusAll : statusCategory;
    return template.replace(/\{(\w+)\}/g, (match, name: string) => values[name] ?? match);
  }
}

customElements.define('video-gallery', VideoGallery);
