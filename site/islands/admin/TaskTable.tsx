/**
 * Video tasks as a table (the Tasks view and a user's recent tasks). A failed task whose credits
 * were not given back offers 'Refund N credits'; the server's once-only refund makes a second
 * attempt fail with its message rather than pay twice. Each row names the provider and model
 * that took the job, and its Details button opens the task's provider record beneath it.
 */
import { useState, type ReactNode } from 'react';
import type { AdminTask } from '../../../shared/api/admin.ts';
import { refundTask } from '../../lib/api/admin.ts';
import * as icons from '../../lib/icons/index.ts';
import Icon from '../shared/Icon.tsx';
import { useConfirmAction } from './ActionDialog.tsx';
import Badge, { humanize, taskTone } from './Badge.tsx';
import DataTable, { dateColumn, userColumn, type Column } from './DataTable.tsx';
import { formatCredits, formatDateTime, shorten } from './format.ts';
import TaskRecord from './TaskRecord.tsx';

const MODE_LABELS: Record<AdminTask['mode'], string> = {
  text: 'Text to Video',
  image: 'Image to Video',
};

export const TASK_ROW_TEST_ID = 'admin-task-row';

/**
 * The task columns and the provider records they open, for a DataTable or PagedTable. The Tasks
 * view names each task's user (`showUser`); a user's own panel does not need to. `onRefunded`
 * refreshes whatever shows the task and the user's balance. `idPrefix` (the table's caption id)
 * keeps the records' ids unique on the page.
 */
export function useTaskTable(
  showUser: boolean,
  onRefunded: () => void,
  idPrefix: string,
): { columns: Column<AdminTask>[]; rowDetails: (task: AdminTask) => ReactNode } {
  const confirmAction = useConfirmAction();
  // Opened records stay open across pages and refreshes: a task id opens the same task's record.
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const recordId = (task: AdminTask) => `${idPrefix}-record-${task.id}`;
  const toggle = (task: AdminTask) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(task.id)) next.add(task.id);
      return next;
    });

  const askRefund = (task: AdminTask) => {
    const credits = formatCredits(task.credits_cost);
    confirmAction({
      question: `Refund ${credits} to ${task.user_email}?`,
      details: (
        <>
          <p>
            For the failed task “{shorten(task.prompt, 120)}” of {formatDateTime(task.created_at)}.
          </p>
          <p>
            {task.user_email} gets {credits} back in a ledger entry for this task. A task can be
            refunded only once.
          </p>
        </>
      ),
      confirmLabel: `Refund ${credits}`,
      run: async () => {
        const result = await refundTask(task.id);
        return (
          result.message ||
          `Refunded ${credits} to ${task.user_email}. New balance: ${formatCredits(result.transaction.balance_after)}.`
        );
      },
      onDone: onRefunded,
    });
  };

  const columns: Column<AdminTask>[] = [
    dateColumn('Created', (task) => task.created_at),
    ...(showUser ? [userColumn<AdminTask>()] : []),
    {
      header: 'Prompt',
      className: 'admin-table__prompt',
      cell: (task) => (
        <>
          <span title={task.prompt}>{shorten(task.prompt)}</span>
          <span className="admin-table__sub">{MODE_LABELS[task.mode] ?? task.mode}</span>
          {task.error && <span className="admin-table__error">{task.error}</span>}
        </>
      ),
    },
    {
      // The provider shares the status cell: the table keeps to the width of a laptop screen.
      header: 'Status and provider',
      className: 'admin-table__provider',
      cell: (task) => (
        <>
          <span className="admin-badges">
            <Badge tone={taskTone(task.status)}>{humanize(task.status)}</Badge>
            {task.refunded && <Badge tone="neutral">Refunded</Badge>}
          </span>
          <span className="admin-table__sub">
            {task.provider} · {task.provider_model ?? 'not accepted yet'}
          </span>
        </>
      ),
    },
    { header: 'Credits', numeric: true, cell: (task) => task.credits_cost.toLocaleString() },
    {
      header: 'Actions',
      headerHidden: true,
      className: 'is-actions',
      cell: (task) => (
        <span className="admin-table__actions">
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            aria-expanded={open.has(task.id)}
            aria-controls={open.has(task.id) ? recordId(task) : undefined}
            onClick={() => toggle(task)}
          >
            Details
            <Icon icon={icons.chevronDown} className="chevron" />
            <span className="sr-only"> of the task “{shorten(task.prompt, 40)}”</span>
          </button>
          {task.status === 'failed' && !task.refunded && (
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              onClick={() => askRefund(task)}
            >
              Refund {formatCredits(task.credits_cost)}
            </button>
          )}
        </span>
      ),
    },
  ];

  const rowDetails = (task: AdminTask) =>
    open.has(task.id) ? <TaskRecord id={recordId(task)} task={task} /> : null;

  return { columns, rowDetails };
}

interface TaskTableProps {
  tasks: AdminTask[];
  captionId: string;
  caption: ReactNode;
  showUser: boolean;
  busy?: boolean;
  onRefunded: () => void;
}

export default function TaskTable({
  tasks,
  captionId,
  caption,
  showUser,
  busy = false,
  onRefunded,
}: TaskTableProps) {
  return (
    <DataTable
      {...useTaskTable(showUser, onRefunded, captionId)}
      rows={tasks}
      captionId={captionId}
      caption={caption}
      rowTestId={TASK_ROW_TEST_ID}
      busy={busy}
    />
  );
}
