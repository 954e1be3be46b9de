import type { FastifyInstance } from 'fastify';
import { archivesRoutes } from '@geosentry/contract';
import { caller, defineRoute } from '../../platform/http/route.ts';
import type { AppContext } from '../../platform/context.ts';
import { ArchivesService } from './archives.service.ts';

export function registerArchives(app: FastifyInstance, ctx: AppContext): void {
  const svc = new ArchivesService(ctx);
  const r = archivesRoutes;
  const paged = <T>(q: { pageNum: number; pageSize: number }, page: { list: T[]; total: number }) => ({
    data: { ...page, pageNum: q.pageNum, pageSize: q.pageSize },
  });
  defineRoute(app, ctx, r.sites, async (c) => ({ data: await svc.sites(caller(c)) }));
  defineRoute(app, ctx, r.contacts, async () => ({ data: await svc.contacts() }));

  defineRoute(app, ctx, r.inspectionList, async (c) => paged(c.query, await svc.listInspections(caller(c), c.query)));
  defineRoute(app, ctx, r.inspectionAdd, async (c) => ({
    key: 'created',
    data: { id: await svc.addInspection(caller(c), c.body, c) },
  }));
  defineRoute(app, ctx, r.inspectionEdit, async (c) => {
    const { id, ...input } = c.body;
    await svc.editInspection(caller(c), id, input, c);
    return { key: 'modified' };
  });
  defineRoute(app, ctx, r.inspectionRectify, async (c) => {
    await svc.rectifyInspection(caller(c), c.body.id, c.body.completedDate, c.body.result, c);
    return { key: 'setOk' };
  });
  defineRoute(app, ctx, r.inspectionDelete, async (c) => {
    await svc.deleteInspection(caller(c), c.body.id, c);
    return { key: 'deleted' };
  });

  defineRoute(app, ctx, r.planList, async (c) => paged(c.query, await svc.listPlans(caller(c), c.query)));
  defineRoute(app, ctx, r.planDetail, async (c) => ({ data: await svc.planDetail(caller(c), c.query.id) }));
  defineRoute(app, ctx, r.planAdd, async (c) => ({
    key: 'created',
    data: { id: await svc.addPlan(caller(c), { ...c.body, files: c.body.files ?? [] }, c) },
  }));
  defineRoute(app, ctx, r.planEdit, async (c) => {
    const { id, ...input } = c.body;
    await svc.editPlan(caller(c), id, input, c);
    return { key: 'modified' };
  });
  defineRoute(app, ctx, r.planDelete, async (c) => {
    await svc.deletePlan(caller(c), c.body.id, c);
    return { key: 'deleted' };
  });
  defineRoute(app, ctx, r.planVersionAdd, async (c) => {
    const { planId, ...v } = c.body;
    return { key: 'created', data: { id: await svc.addVersion(caller(c), planId, { ...v, files: v.files ?? [] }, c) } };
  });
  defineRoute(app, ctx, r.planVersionApprove, async (c) => ({
    key: 'setOk',
    data: await svc.approveVersion(caller(c), c.body.versionId, c),
  }));
  defineRoute(app, ctx, r.drillAdd, async (c) => {
    const { planId, ...d } = c.body;
    return { key: 'created', data: { id: await svc.addDrill(caller(c), planId, { ...d, files: d.files ?? [] }, c) } };
  });
  defineRoute(app, ctx, r.drillDelete, async (c) => {
    await svc.deleteDrill(caller(c), c.body.id, c);
    return { key: 'deleted' };
  });

  defineRoute(app, ctx, r.folders, async (c) => ({ data: await svc.folders(caller(c), c.query.platformId) }));
  defineRoute(app, ctx, r.folderAdd, async (c) => ({
    key: 'created',
    data: { id: await svc.addFolder(caller(c), c.body.platformId, c.body.parentId, c.body.name, c) },
  }));
  defineRoute(app, ctx, r.folderDelete, async (c) => {
    await svc.deleteFolder(caller(c), c.body.id, c);
    return { key: 'deleted' };
  });
  defineRoute(app, ctx, r.documentList, async (c) => paged(c.query, await svc.listDocuments(caller(c), c.query)));
  defineRoute(app, ctx, r.documentVersions, async (c) => ({
    data: await svc.documentVersions(caller(c), c.query.id),
  }));
  defineRoute(app, ctx, r.documentAdd, async (c) => ({
    key: 'created',
    data: { id: await svc.addDocument(caller(c), c.body, c) },
  }));
  defineRoute(app, ctx, r.documentEdit, async (c) => {
    const { id, ...input } = c.body;
    await svc.editDocument(caller(c), id, input, c);
    return { key: 'modified' };
  });
  defineRoute(app, ctx, r.documentVersionAdd, async (c) => ({
    key: 'created',
    data: { id: await svc.addDocumentVersion(caller(c), c.body.documentId, c.body, c) },
  }));
  defineRoute(app, ctx, r.documentDelete, async (c) => {
    await svc.deleteDocument(caller(c), c.body.id, c);
    return { key: 'deleted' };
  });
}
