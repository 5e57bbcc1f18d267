export { ActivityMenu } from "./activity-menu";
export { describeEntry, type FeedEntry, LiveFeed } from "./live-feed";
export { LiveFeedProvider, useLiveFeed } from "./live-feed-provider";
export { errorText, failureText, NON_TEXT_ERROR_MESSAGE, notify, type ToastType, toastDuration, UNKNOWN_ERROR_MESSAGE } from "./notify";
export { LIVE_TOASTER_ID, Toasters } from "./toasters";
