/**
 * The consent banner's behaviour (markup and styles: site/components/ConsentBanner.astro).
 * Kept in a module rather than in the component so a test can load it into a bare page.
 */
import { initAnalytics, setAnalyticsConsent } from './analytics.ts';
import { onConsentChangedElsewhere, readConsent, type ConsentChoice } from './consent.ts';

/** Runs on every page load: reports the page view and asks for consent while none is stored. */
export function startConsentBanner(): void {
  initAnalytics();

  const banner = document.querySelector<HTMLElement>('[data-consent-banner]');
  if (!banner) return;
  const current = banner.querySelector<HTMLElement>('[data-consent-current]');
  // The footer button that reopened the banner gets focus back when it closes.
  let opener: HTMLElement | null = null;

  const close = () => {
    const hadFocus = banner.contains(document.activeElement);
    banner.hidden = true;
    if (hadFocus) opener?.focus();
    opener = null;
  };

  // Shown without taking focus: the visitor keeps reading where they are.
  if (readConsent() === null) banner.hidden = false;

  banner.addEventListener('click', (event) => {
    const button = (event.target as Element).closest<HTMLElement>('[data-consent]');
    if (!button) return;
    setAnalyticsConsent(button.dataset.consent as ConsentChoice);
    close();
  });

  banner.addEventListener('keydown', (event) => {
    // Escape keeps the stored choice; with none stored the question stays open.
    if (event.key === 'Escape' && readConsent() !== null) close();
  });

  document.addEventListener('click', (event) => {
    const button = (event.target as Element).closest<HTMLElement>('[data-consent-open]');
    if (!button) return;
    const choice = readConsent();
    if (current) {
      current.hidden = choice === null;
      current.textContent =
        choice === 'granted'
          ? 'You currently allow Google Analytics.'
          : 'You currently decline Google Analytics.';
    }
    opener = button;
    banner.hidden = false;
    // Asked for by the visitor, so focus moves to the banner and its text is read out.
    banner.focus();
  });

  // A choice made in another tab answers the question here too.
  onConsentChangedElsewhere((choice) => {
    if (choice) close();
    else banner.hidden = false;
  });
}
