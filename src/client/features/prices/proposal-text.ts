// Words and numbers of the review, shared by its table and its messages.

const count = (n: number) => n.toLocaleString("en-US");

/** "1 new price", "12 new prices". */
export function pricesText(n: number): string {
  return `${count(n)} new ${n === 1 ? "price" : "prices"}`;
}

/** A proposal's move: "+12.5%", "-3%", "0%"; null (the product had no price): "No price before". */
export function changeText(percent: number | null): string {
  if (percent === null) return "No price before";
  const size = Math.abs(percent).toLocaleString("en-US", { maximumFractionDigits: 1 });
  return percent > 0 ? `+${size}%` : percent < 0 ? `-${size}%` : "0%";
}
