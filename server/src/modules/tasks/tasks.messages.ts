import type { Language, TaskGrade, TaskPriority } from '@geosentry/contract';

/** The texts of task messages (mail and SMS), in the recipient's language. */

type Texts = Record<Language, string>;
const PRIORITY: Record<TaskPriority, Texts> = {
  importantUrgent: { en: 'important and urgent', zh: '重要紧急', ko: '중요·긴급' },
  importantNotUrgent: { en: 'important, not urgent', zh: '重要不紧急', ko: '중요·비긴급' },
  commonUrgent: { en: 'common, urgent', zh: '一般紧急', ko: '일반·긴급' },
  commonNotUrgent: { en: 'common, not urgent', zh: '一般不紧急', ko: '일반·비긴급' },
};
const GRADE: Record<TaskGrade, Texts> = {
  normal: { en: 'normal', zh: '一般', ko: '보통' },
  good: { en: 'good', zh: '良好', ko: '양호' },
  excellent: { en: 'excellent', zh: '优秀', ko: '우수' },
};

export interface MessageTask {
  id: number;
  name: string;
  platformName: string;
  priority: TaskPriority;
  endTime: string;
  publisher: string;
  assignee: string;
}

export type TaskEvent =
  | { kind: 'assigned' }
  | { kind: 'reviewerAssigned' }
  | { kind: 'submitted' }
  | { kind: 'reviewed'; pass: boolean; grade: TaskGrade | null; note: string | null }
  | { kind: 'reminder' };

const fill = (s: string, p: Record<string, string>): string => s.replace(/\{(\w+)\}/g, (_, k: string) => p[k] ?? '');

const SUBJECT: Record<TaskEvent['kind'], Texts> = {
  assigned: { en: 'New task: {name}', zh: '新任务：{name}', ko: '새 작업: {name}' },
  reviewerAssigned: { en: 'Task to review: {name}', zh: '待审核任务：{name}', ko: '검토할 작업: {name}' },
  submitted: { en: 'Task submitted for review: {name}', zh: '任务已提交审核：{name}', ko: '검토 요청된 작업: {name}' },
  reviewed: { en: 'Task reviewed: {name}', zh: '任务已审核：{name}', ko: '작업 검토 결과: {name}' },
  reminder: { en: 'Task due soon: {name}', zh: '任务即将到期：{name}', ko: '곧 마감되는 작업: {name}' },
};
const BODY: Record<TaskEvent['kind'], Texts> = {
  assigned: {
    en: '{publisher} assigned you the task "{name}" at {site} ({priority}), due {end}.',
    zh: '{publisher} 给您分配了任务“{name}”（{site}，{priority}），截止时间 {end}。',
    ko: '{publisher}님이 작업 "{name}"({site}, {priority})을 배정했습니다. 마감 {end}.',
  },
  reviewerAssigned: {
    en: 'You review the task "{name}" at {site} of {assignee}, due {end}.',
    zh: '您是 {assignee} 的任务“{name}”（{site}）的审核人，截止时间 {end}。',
    ko: '{assignee}님의 작업 "{name}"({site})의 검토자로 지정되었습니다. 마감 {end}.',
  },
  submitted: {
    en: '{assignee} submitted the task "{name}" at {site} for your review.',
    zh: '{assignee} 已提交任务“{name}”（{site}），请审核。',
    ko: '{assignee}님이 작업 "{name}"({site})의 검토를 요청했습니다.',
  },
  reviewed: {
    en: 'Your task "{name}" at {site}: {result}.',
    zh: '您的任务“{name}”（{site}）：{result}。',
    ko: '작업 "{name}"({site}): {result}.',
  },
  reminder: {
    en: 'The task "{name}" at {site} ends at {end} and is not finished.',
    zh: '任务“{name}”（{site}）将于 {end} 到期，尚未完成。',
    ko: '작업 "{name}"({site})이 {end}에 마감되지만 아직 끝나지 않았습니다.',
  },
};
const PASSED: Texts = { en: 'passed, grade {grade}', zh: '审核通过，完成等级 {grade}', ko: '통과, 완료 등급 {grade}' };
const FAILED: Texts = {
  en: 'not passed, back to ongoing: {note}',
  zh: '审核未通过，已退回进行中：{note}',
  ko: '불합격, 진행 중으로 반려: {note}',
};

/** The end time as yyyy-MM-dd HH:mm UTC (the message names its zone). */
const when = (isoTime: string): string => `${isoTime.slice(0, 10)} ${isoTime.slice(11, 16)} UTC`;

export function taskMessage(lang: Language, t: MessageTask, e: TaskEvent): { subject: string; body: string } {
  const p: Record<string, string> = {
    name: t.name,
    site: t.platformName,
    priority: PRIORITY[t.priority][lang],
    end: when(t.endTime),
    publisher: t.publisher,
    assignee: t.assignee,
  };
  if (e.kind === 'reviewed')
    p.result = e.pass
      ? fill(PASSED[lang], { grade: e.grade ? GRADE[e.grade][lang] : '' })
      : fill(FAILED[lang], { note: e.note ?? '' });
  return { subject: fill(SUBJECT[e.kind][lang], p), body: fill(BODY[e.kind][lang], p) };
}
