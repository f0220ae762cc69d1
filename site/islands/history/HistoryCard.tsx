/** One completed video in the history list: plays inline, shows prompt, mode, model and date. */
import { useState } from 'react';
import { MODEL_NAMES, type HistoryItem } from '../../../server/contracts/video.ts';
import { downloadVideo } from '../../lib/download.ts';
import Icon from '../shared/Icon.tsx';

const MODE_LABELS: Record<HistoryItem['mode'], string> = {
  text: 'Text to Video',
  image: 'Image to Video',
};

const DATE_FORMAT = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

function formatDate(value: string): string | null {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : DATE_FORMAT.format(date);
}

function DownloadIcon() {
  return (
    <Icon>
      <path d="M12 4v11m0 0-4-4m4 4 4-4M5 20h14" />
    </Icon>
  );
}

export default function HistoryCard({ item }: { item: HistoryItem }) {
  const [downloading, setDownloading] = useState(false);
  const date = item.completed_at || item.created_at;
  const dateText = formatDate(date);
  const promptId = `history-prompt-${item.id}`;

  const download = async () => {
    setDownloading(true);
    try {
      await downloadVideo(item.result_url, item.prompt);
    } finally {
      setDownloading(false);
    }
  };

  return (
    <li className="history-card" data-testid="history-item">
      <video
        className="history-card__video"
        src={item.result_url}
        poster={item.poster_url ?? undefined}
        controls
        playsInline
        preload="none"
        aria-describedby={promptId}
      />
      <div className="history-card__body">
        <p className="history-card__prompt" id={promptId} title={item.prompt}>
          {item.prompt}
        </p>
        <p className="history-card__meta">
          <span className={`history-card__mode history-card__mode--${item.mode}`}>
            {MODE_LABELS[item.mode] ?? item.mode}
          </span>
          <span>{MODEL_NAMES[item.model] ?? item.model}</span>
          {dateText && <time dateTime={date}>{dateText}</time>}
        </p>
        <button
          type="button"
          className="btn btn-secondary history-card__download"
          onClick={download}
          disabled={downloading}
          aria-busy={downloading}
          aria-describedby={promptId}
          data-testid="download-button"
        >
          {downloading ? (
            <span className="spinner spinner-sm" aria-hidden="true" />
          ) : (
            <DownloadIcon />
          )}
          {downloading ? 'Downloading…' : 'Download'}
        </button>
      </div>
    </li>
  );
}
