// My settings' words in English: the reference of its catalogue, typed as `SettingsCatalogue`
// in every other language (zh-CN.ts), so TypeScript refuses a missing key. Loaded with the
// settings chunk, not the console's first one (./index.ts).

export const en = {
  settings: {
    title: 'My settings',
    language: 'Language',
    languageHelp: 'The language of the console and of the e-mail and chat messages sent to you.',
    followBrowser: 'As my browser',
    saveLanguage: 'Save language',
    notifications: 'Notifications',
    notificationsHelp:
      'Which messages each channel sends you. A message you turn off here still reaches your inbox in the console.',
    noChannels:
      'Your organisation has set up no e-mail or chat channel yet: notifications reach you in the console only.',
    channelOff: 'switched off by the administrator',
    kinds: {
      task_assigned: 'A task assigned to me',
      task_claimable: 'A task I may claim',
      urge: 'A reminder (urge)',
      task_overdue: 'A task past its due date',
      cc: 'A copy for my information',
      task_returned: 'My request was returned',
      task_decided_on_behalf: 'Decided on my behalf',
      task_reassigned: 'A task moved to someone else',
      instance_withdrawn: 'A request was withdrawn',
    } as Record<string, string>,
    otherKind: 'Other messages',
    urgent: 'urgent',
    timeZone: 'Time zone',
    timeZoneHelp: 'Quiet hours and the digest hour are read in this time zone.',
    quiet: 'Quiet hours',
    quietOn: 'Hold messages during quiet hours',
    quietHelp: 'Messages that arrive in the window wait until it ends.',
    quietStart: 'From',
    quietEnd: 'Until',
    quietUrgent: 'Let urgent messages through (reminders and overdue tasks)',
    digest: 'Daily digest',
    digestOn: 'Send me one digest a day instead of a message per new task',
    digestHelp: 'The digest lists every open task of yours, each with Approve and Reject.',
    digestHour: 'Send it at',
    digestNext: (when: string) => `Next digest: ${when}`,
    save: 'Save notification settings',
    saved: 'Saved.',
  },
};

export type SettingsCatalogue = typeof en;
