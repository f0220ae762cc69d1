/**
 * The visitor's analytics choice, kept in localStorage so it holds across pages and visits.
 * No choice stored means "not asked yet": analytics stays off and the banner asks.
 */

const CONSENT_STORAGE_KEY = 'analytics-consent';

export type ConsentChoice = 'granted' | 'denied';

function isChoice(value: unknown): value is ConsentChoice {
  return value === 'granted' || value === 'denied';
}

/** The stored choice, or null when the visitor has not chosen (or storage is unavailable). */
export function readConsent(): ConsentChoice | null {
  try {
    const value = window.localStorage.getItem(CONSENT_STORAGE_KEY);
    return isChoice(value) ? value : null;
  } catch {
    // Storage can be blocked (privacy modes, sandboxed frames): treat it as "not chosen".
    return null;
  }
}

/** Remembers the choice. Returns false when storage refused it (it then lasts for this page only). */
export function writeConsent(choice: ConsentChoice): boolean {
  try {
    window.localStorage.setItem(CONSENT_STORAGE_KEY, choice);
    return true;
  } catch {
    return false;
  }
}

/** Calls `listener` when another tab of the site stores a new choice. Returns an unsubscribe. */
export function onConsentChangedElsewhere(
  listener: (choice: ConsentChoice | null) => void,
): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key !== CONSENT_STORAGE_KEY && event.key !== null) return;
    listener(isChoice(event.newValue) ? event.newValue : null);
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}
