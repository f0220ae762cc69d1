/**
 * The result panel's part of issue 35, loaded once a task has been described by the server:
 * the task's length, options and source (its card in History), or the two ways on from a
 * finished video. Apart from ResultPanel.tsx so the page does not send it up front.
 */
import { localizePath, type Locale } from '../../i18n/locales.ts';
import { TaskActions, TaskFacts, type TaskFactsData } from './TaskFacts.tsx';

const HISTORY_PATH = '/video-history';

interface ResultDetailsProps {
  task: TaskFactsData;
  part: 'facts' | 'actions';
  /** The source's prompt, when the page knows it. */
  sourceLabel?: string | null;
  /** Refill the form from a settings link (Generate again, Extend). */
  onUse?: (href: string) => void;
  locale: Locale;
}

export default function ResultDetails({
  task,
  part,
  sourceLabel = null,
  onUse,
  locale,
}: ResultDetailsProps) {
  if (part === 'actions') return <TaskActions task={task} onUse={onUse} locale={locale} />;
  const source = task.source_task_id
    ? {
        href: localizePath(`${HISTORY_PATH}#video-${task.source_task_id}`, locale),
        label: sourceLabel,
      }
    : null;
  return <TaskFacts task={task} source={source} locale={locale} />;
}
