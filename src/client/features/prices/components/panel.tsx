import type { ReactNode } from "react";

interface PanelProps {
  titleId: string;
  title: string;
  description?: ReactNode;
  /** Beside the title (e.g. "Add feed"). */
  actions?: ReactNode;
  testId?: string;
  children: ReactNode;
}

/** One part of the Prices screen: a titled section, its description and its content. */
export function Panel({ titleId, title, description, actions, testId, children }: PanelProps) {
  return (
    <section
      aria-labelledby={titleId}
      data-testid={testId}
      className="flex min-w-0 flex-col gap-3 rounded-xl border border-gray-200 bg-white p-3 text-gray-900 shadow-sm sm:p-4 dark:border-gray-700 dark:bg-gray-900 dark:text-gray-50"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 id={titleId} className="text-lg font-bold">
            {title}
          </h2>
          {description ? <p className="text-sm text-gray-700 dark:text-gray-300">{description}</p> : null}
        </div>
        {actions}
      </div>
      {children}
    </section>
  );
}
