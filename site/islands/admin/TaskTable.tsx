/**
 * Video tasks as a table (the Tasks view and a user's recent tasks). A failed task whose credits
 * were not given back offers 'Refund N credits'; the server's once-only refund makes a second
 * attempt fail with its message rather than pay twice.
 */
import type { ReactNode } from 'react';
import type { AdminTask } from '../../../server/contracts/admin.ts';
import { refundTask } from '../../lib/api/admin.ts';
import { useConfirmAction } from './ActionDialog.tsx';
import Badge, { humanize, taskTone } from './Badge.tsx';
import DataTable, { dateColumn, userColumn, type Column } from './DataTable.tsx';
import { formatCredits, formatDateTime, shorten } from './format.ts';

const MODE_LABELS: Record<AdminTask['mode'], string> = {
  text: 'Text to Video',
  image: 'Image to Video',
};

export const TASK_ROW_TEST_ID = 'admin-task-row';

/**
 * The task columns. The Tasks view names each task's user (`showUser`); a user's own panel does
 * not need to. `onRefunded` refreshes whatever shows the task and the user's balance.
 */
export function useTaskColumns(showUser: boolean, onRefunded: () => void): Column<AdminTask>[] {
  const confirmAction = useConfirmAction();

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

  return [
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
      header: 'Status',
      cell: (task) => (
        <span className="admin-badges">
          <Badge tone={taskTone(task.status)}>{humanize(task.status)}</Badge>
          {task.refunded && <Badge tone="neutral">Refunded</Badge>}
        </span>
      ),
    },
    { header: 'Credits', numeric: true, cell: (task) => task.credits_cost.toLocaleString() },
    {
      header: 'Actions',
      headerHidden: true,
      className: 'is-actions',
      cell: (task) =>
        task.status === 'failed' &&
        !task.refunded && (
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={() => askRefund(task)}
          >
            Refund {formatCredits(task.credits_cost)}
          </button>
        ),
    },
  ];
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
      columns={useTaskColumns(showUser, onRefunded)}
      rows={tasks}
      captionId={captionId}
      caption={caption}
      rowTestId={TASK_ROW_TEST_ID}
      busy={busy}
    />
  );
}
