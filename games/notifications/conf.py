"""The notifications' knobs: mail, Web Push, the menu's badge. Each is a setting of that name, its
default here; the environment variable of the same name sets it (bakery_site/env.py:
feature_knobs), and a test sets it as any setting."""

#: Seconds a notification waits unread before the sweep mails it (games/notifications/mail.py),
#: with all else the person has waiting, so what arrives together goes in one mail.
NOTIFICATION_MAIL_AFTER = 60.0
#: Seconds after which an unread notification is never mailed.
NOTIFICATION_MAIL_WITHIN = float(2 * 24 * 3600)

#: Web Push's private key (pywebpush); Web Push is on when both keys are set (`manage.py
#: vapid_keys` makes a pair).
VAPID_PRIVATE_KEY = ""
#: Web Push's public key, the browsers' half of the pair.
VAPID_PUBLIC_KEY = ""
#: How a push service reaches the site's operator, mailto: or https:.
VAPID_SUBJECT = "mailto:bakehouse@localhost"
#: The push services' hosts a browser's subscription may name (games/notifications/push_policy.py):
#: a name, or *.domain for any name under it; by default those of Chrome and most Chromium
#: browsers (FCM), Edge (WNS), Firefox (autopush) and Safari (APNs).
PUSH_SERVICE_HOSTS = [
    "fcm.googleapis.com",
    "updates.push.services.mozilla.com",
    "*.notify.windows.com",
    "*.push.apple.com",
]

#: Seconds between the badge's asks on pages without a table socket (the lobby, the inbox...).
BADGE_POLL_SECONDS = 60

former_names = {
    "NOTIFICATION_MAIL_AFTER": "NOTICE_MAIL_AFTER",
    "NOTIFICATION_MAIL_WITHIN": "NOTICE_MAIL_WITHIN",
}
"""The environment's older names of a knob, still read when its own is not set."""
