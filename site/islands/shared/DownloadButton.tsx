/** The Download button of a finished video (generator result, history card): busy while saving. */
import { useState } from 'react';
import type { Locale } from '../../i18n/locales.ts';
import { generator_download, generator_downloading } from '../../i18n/messages.ts';
import { downloadVideo } from '../../lib/download.ts';
import * as icons from '../../lib/icons/index.ts';
import Icon from './Icon.tsx';

interface DownloadButtonProps {
  url: string;
  /** Names the saved file. */
  prompt: string;
  className: string;
  /** Id of the text that says which video this is, when several are on the page. */
  describedBy?: string;
  /** The page's language. */
  locale?: Locale;
}

export default function DownloadButton({
  url,
  prompt,
  className,
  describedBy,
  locale = 'en',
}: DownloadButtonProps) {
  const [downloading, setDownloading] = useState(false);
  const download = async () => {
    setDownloading(true);
    try {
      await downloadVideo(url, prompt, locale);
    } finally {
      setDownloading(false);
    }
  };
  return (
    <button
      type="button"
      className={className}
      onClick={download}
      disabled={downloading}
      aria-busy={downloading}
      aria-describedby={describedBy}
      data-testid="download-button"
    >
      {downloading ? (
        <span className="spinner spinner-sm" aria-hidden="true" />
      ) : (
        <Icon icon={icons.download} />
      )}
      {downloading ? generator_downloading(locale) : generator_download(locale)}
    </button>
  );
}
