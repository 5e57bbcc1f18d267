import { ShieldX } from "lucide-react";
import { useId } from "react";

export const ACCESS_DENIED_TITLE = "Access Denied";

/** Shown in place of a view to a user whose role may not use it; `text` says what they may not do. */
export function AccessDenied({ text }: { text: string }) {
  const id = useId();
  return (
    <section
      aria-labelledby={id}
      className="mx-auto mt-8 flex max-w-md flex-col items-center gap-3 rounded-xl border border-red-200 bg-white p-6 text-center dark:border-red-900 dark:bg-gray-900"
    >
      <ShieldX aria-hidden="true" className="h-10 w-10 text-red-700 dark:text-red-300" />
      <h1 id={id} className="text-xl font-bold">
        {ACCESS_DENIED_TITLE}
      </h1>
      <p role="alert" className="text-gray-800 dark:text-gray-100">
        {text}
      </p>
    </section>
  );
}
