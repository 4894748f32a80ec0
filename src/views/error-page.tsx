// Error pages for the authorize step and expired / forged setup submissions. Every value is escaped.
import { Layout } from "./layout.tsx";

export interface ErrorPageProps {
  nonce: string;
  title: string;
  message: string;
  /** OAuth error code, shown small for whoever debugs the client. */
  code?: string;
}

export function ErrorPage({ nonce, title, message, code }: ErrorPageProps): string {
  return Layout({
    title,
    nonce,
    children: (
      <div class="card">
        <h1 safe>{title}</h1>
        <p class="error" role="alert" safe>{message}</p>
        <p>Go back to the app you came from and start connecting your mailbox again.</p>
        {code ? <p class="hint">Error code: <code safe>{code}</code></p> : ""}
      </div>
    ) as string,
  });
}
