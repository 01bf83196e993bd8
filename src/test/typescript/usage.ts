// Type-checked by `npm run client:ts` (./mvnw verify) against the client generated from openapi.yaml
// (target/ts-client/schema.d.ts): a few operations through openapi-fetch, using response fields
// WITHOUT optional chaining or non-null assertions. If the contract makes them optional again, or
// drops a declared limit's field, this stops compiling.
import createClient from "openapi-fetch";
import type { components, paths } from "../../../target/ts-client/schema";

type Page<T> = { items: T[]; next: string | null };

export async function usage(baseUrl: string, token: string): Promise<string[]> {
  const api = createClient<paths>({
    baseUrl,
    headers: { Authorization: `Bearer ${token}` },
  });

  const post = await api.POST("/posts", { body: { body: "Query first, then tables." } });
  if (!post.data) throw new Error(post.error.title);
  const postId: string = post.data.id; // Created.id is required

  const paste = await api.POST("/pastes", { body: { body: "SELECT 1;", private: true, expiresIn: "PT1H" } });
  if (!paste.data) throw new Error(paste.error.title);
  const secret: string = paste.data.secret; // CreatedPaste.secret is required
  const expiresAt: string | null = paste.data.expiresAt; // required, nullable

  // X-Paste-Secret is a required header
  await api.PUT("/pastes/{id}", {
    params: { path: { id: paste.data.id }, header: { "X-Paste-Secret": secret } },
    body: { title: "renamed" },
  });

  const inbox = await api.GET("/inbox", { params: { query: { limit: 10 } } });
  if (!inbox.data) throw new Error(inbox.error.title);
  const page: Page<components["schemas"]["InboxEntry"]> = inbox.data; // items and next are required
  const previews: (string | null)[] = page.items.map((entry) => entry.lastMessage);
  const unread: number = inbox.data.items.reduce((sum, entry) => sum + entry.unreadCount, 0);

  const placement = await api.GET("/ring/{table}/token", {
    params: { path: { table: "songs" }, query: { key: ["artist=Miles Davis", "album=Kind of Blue", "song=So What"] } },
  });
  if (!placement.data) throw new Error(placement.error.title);
  const replicas: string[] = placement.data.replicas;

  const comments = await api.GET("/posts/{id}", { params: { path: { id: postId } } });
  if (!comments.data) throw new Error(comments.error.title);
  const firstComment: string | undefined = comments.data.comments.items[0]?.body;

  return [postId, String(expiresAt), ...previews.map(String), String(unread), ...replicas, String(firstComment)];
}
