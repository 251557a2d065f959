// Who the alarms reach: the address -c alarmEmail names, through a topic in each stack that has alarms.

import { Validations } from 'aws-cdk-lib';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';

/** Said on every synth without -c alarmEmail (infra/app.ts), and in the deploy's output. */
export const NO_ALARM_EMAIL = 'no alarm notifies anyone: deploy with -c alarmEmail=you@example.com';

/** The deploy's output AlarmNotifications: who the alarms reach. */
export const alarmNotifications = (email: string | undefined): string =>
  email === undefined ? `none: ${NO_ALARM_EMAIL}` : `mailed to ${email}, once it confirms SNS's subscription mail`;

/**
 * A topic that mails `email`, in `scope`'s stack: an alarm's actions must be in the alarm's Region, so
 * each stack with alarms (one beside the service's, in another Region, too) has its own.
 */
export function mailingTopic(scope: Construct, email: string): Topic {
  const topic = new Topic(scope, 'AlarmTopic', { displayName: 'Plant store alarms', enforceSSL: true });
  topic.addSubscription(new EmailSubscription(email));
  Validations.of(topic).acknowledge({
    id: 'AwsSolutions-SNS2',
    reason:
      'Alarm notifications carry alarm names and states only, no customer data; CloudWatch cannot publish to a ' +
      'topic encrypted with the AWS-managed SNS key, and a customer-managed key is left to deployments that need one.',
  });
  return topic;
}
