/* rouge_core._native: the binding of the compiled kernels (the C files in rouge_core/kernels/, which know
 * nothing of Python). It converts Python objects to the kernels' arrays, calls them (without
 * the GIL where a call is long, or runs on threads), and builds the results: plain tuples,
 * lists and dicts, and the result records through one generic helper (`record`) that fills
 * the classes rouge_core registers (kernel_spec.RECORDS) field by field as their __init__
 * would. rouge_core.kernels.native is the only module that imports this one; _native.pyi describes it.
 *
 * Only the stable ABI is used (Py_LIMITED_API, set by setup.py: one abi3 build serves every
 * CPython from 3.10), except on a free-threaded CPython, which has no stable ABI: there the
 * same source builds against the full API and declares that it needs no GIL. Nothing here is
 * mutable after import but objects' lazily built parts, which are published atomically, and a
 * StemMap's table of stems, which a lock guards, so threads may call in at once. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "kernels/batch.h"
#include "kernels/stems.h"
#include "kernels/grams.h"
#include "kernels/wlcs.h"
#include "kernels/resample.h"
#include "kernels/jieba.h"

/* Calls whose sides together have more tokens than this release the GIL while the kernels run. */
enum { RELEASE_GIL_TOKENS = 4096 };

/* ------------------------------------------------------------------------------------------
 * module state: set at import and by configure_record / configure_scoring, then only read
 * ---------------------------------------------------------------------------------------- */

static PyObject *EMPTY_TUPLE, *FLOAT_ONE;
static newfunc object_new; /* object.__new__: a document is made as its frozen dataclass's __init__ makes it */
static PyTypeObject *TokensType, *LayoutType, *PlansType, *BatchJobType, *StemMapType, *JiebaType;

typedef struct {
    PyObject *cls;                           /* the class (None for documents: given per call) */
    allocfunc alloc;                         /* its tp_alloc (records are made as __init__ makes them) */
    int nfields;
    PyObject *name[SPEC_MAX_FIELDS];         /* interned field names */
    PyObject *slot[SPEC_MAX_FIELDS];         /* the class's slot descriptor of each field, or NULL */
    descrsetfunc set[SPEC_MAX_FIELDS];       /* and its __set__ */
} Record;

static Record RECORDS[RECORD_KINDS];
static const char *const RECORD_FIELD_NAMES[RECORD_KINDS][SPEC_MAX_FIELDS + 1] = SPEC_RECORD_FIELDS;

static PyObject *ONLY_REFERENCE; /* the reason a single reference is chosen */
static PyObject *NO_EVIDENCE;    /* ReferenceScore.evidence of a score computed without evidence */

/* ------------------------------------------------------------------------------------------
 * small helpers
 * ---------------------------------------------------------------------------------------- */

/* f(a) (vectorcall is in the stable ABI from 3.12 on) */
#if !defined(Py_LIMITED_API) || Py_LIMITED_API + 0 >= 0x030C0000
#define call1(f, a) PyObject_Vectorcall(f, (PyObject *[]){a}, 1, NULL)
#else
#define call1(f, a) PyObject_CallFunctionObjArgs(f, a, NULL)
#endif

static int check_nargs(const char *name, Py_ssize_t nargs, Py_ssize_t min, Py_ssize_t max) {
    if (nargs >= min && nargs <= max) return 0;
    PyErr_Format(PyExc_TypeError, "%s takes %zd to %zd arguments (%zd given)", name, min, max, nargs);
    return -1;
}

static int as_double(PyObject *o, double *out) {
    *out = PyFloat_AsDouble(o);
    return *out == -1.0 && PyErr_Occurred() ? -1 : 0;
}

static int as_isize(PyObject *o, isize *out) {
    *out = (isize)PyLong_AsSsize_t(o);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

static int as_flag(PyObject *o, int *out) {
    *out = PyObject_IsTrue(o);
    return *out < 0 ? -1 : 0;
}

/* A str's UTF-8 bytes (kept by the str); -1 with a TypeError for anything else, or a str
 * that has none (a lone surrogate): rouge_core.kernels.native then takes the pure path. */
static int utf8_of(PyObject *s, TermRef *out) {
    Py_ssize_t len;
    const char *data = PyUnicode_Check(s) ? PyUnicode_AsUTF8AndSize(s, &len) : NULL;
    if (!data) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "terms must be strings");
        return -1;
    }
    out->data = (const unsigned char *)data;
    out->len = len;
    return 0;
}

/* Whether the compiled lowering table (lowering.h) is the running Python's str.lower() on the
 * code points that matter (configure_lowering, from rouge_core.kernels.native at import): when it is
 * not, non-ASCII text under WORDS_LOWER_UNICODE is left to the pure path. */
static int LOWERING_OK = 1;

/* A str's UTF-8 (kept by the str) for the tokenizers under `rule`; 0 (no error set) for
 * another value, a str without UTF-8 (a lone surrogate) or non-ASCII text whose lower case
 * the kernels do not know (LOWERING_OK). */
static int text_of(PyObject *s, int rule, TermRef *out) {
    if (!PyUnicode_Check(s)) return 0;
    Py_ssize_t len;
    const char *data = PyUnicode_AsUTF8AndSize(s, &len);
    if (!data) {
        PyErr_Clear();
        return 0;
    }
    if (rule == WORDS_LOWER_UNICODE && !LOWERING_OK && len != PyUnicode_GetLength(s)) return 0;
    out->data = (const unsigned char *)data;
    out->len = len;
    return 1;
}

/* A rule of the tokenizers (WORDS_*) from a Python int. */
static int as_rule(PyObject *o, int *rule) {
    isize v;
    if (as_isize(o, &v) < 0) return -1;
    if (v != WORDS_KEEP_CASE && v != WORDS_LOWER_ASCII && v != WORDS_LOWER_UNICODE) {
        PyErr_Format(PyExc_ValueError, "no word rule %zd", (Py_ssize_t)v);
        return -1;
    }
    *rule = (int)v;
    return 0;
}

/* `t` no longer tracked by the cyclic garbage collector: it cannot be part of a cycle, and
 * the collector would untrack it on its first pass anyway; untracking it here spares that
 * pass over the tens of thousands of tuples evidence makes. */
static PyObject *untracked(PyObject *t) {
    if (t) PyObject_GC_UnTrack(t);
    return t;
}

/* tuple[k] = item (stolen). A NULL item (its error set) or one that cannot be stored drops the
 * tuple (*tuple becomes NULL), which ends the caller's filling loop. */
static void tuple_put(PyObject **tuple, Py_ssize_t k, PyObject *item) {
    if (!item || PyTuple_SetItem(*tuple, k, item) < 0) Py_CLEAR(*tuple);
}

/* A tuple of n new references (stolen; NULL items: the tuple fails). */
static PyObject *tuple_of(PyObject **items, Py_ssize_t n) {
    PyObject *t = PyTuple_New(n);
    for (Py_ssize_t k = 0; k < n; k++) {
        if (t && (!items[k] || PyTuple_SetItem(t, k, items[k]) < 0)) {
            Py_CLEAR(t);
            continue;
        }
        if (!t) Py_XDECREF(items[k]);
    }
    return untracked(t);
}

/* Evidence makes many small objects that hold no cycles: the cyclic garbage collector is
 * paused meanwhile (it would scan them again and again as they accumulate), and the ints
 * 0..n-1 are made once per call. */
typedef struct {
    PyObject **v;
    Py_ssize_t n;
    int gc_was_enabled;
} Ints;

static int ints_init(Ints *t, Py_ssize_t n) {
    t->gc_was_enabled = PyGC_Disable();
    t->n = n;
    t->v = xcalloc((size_t)n + 1, sizeof(PyObject *));
    if (!t->v) {
        if (t->gc_was_enabled) PyGC_Enable();
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void ints_free(Ints *t) {
    if (!t->v) return;
    for (Py_ssize_t k = 0; k < t->n; k++) Py_XDECREF(t->v[k]);
    free(t->v);
    t->v = NULL;
    if (t->gc_was_enabled) PyGC_Enable();
}

/* A new reference to the int k. */
static PyObject *int_of(Ints *t, Py_ssize_t k) {
    if (k < 0 || k >= t->n) return PyLong_FromSsize_t(k);
    if (!t->v[k] && !(t->v[k] = PyLong_FromSsize_t(k))) return NULL;
    Py_INCREF(t->v[k]);
    return t->v[k];
}

/* The ints v[0..n) as a tuple. */
static PyObject *int_tuple(Ints *ints, const i32 *v, Py_ssize_t n) {
    PyObject *t = PyTuple_New(n);
    for (Py_ssize_t k = 0; t && k < n; k++) {
        PyObject *x = int_of(ints, v[k]);
        tuple_put(&t, k, x);
    }
    return untracked(t);
}

/* (v[0], v[1]) as a tuple of ints. */
static PyObject *int_pair(Ints *ints, const i32 *v) { return int_tuple(ints, v, 2); }

/* The pairs (flat[2k], flat[2k + 1]), k < npairs, as int tuples in a list (as_list) or a tuple. */
static PyObject *int_pairs(Ints *ints, const i32 *flat, Py_ssize_t npairs, int as_list) {
    PyObject *out = as_list ? PyList_New(npairs) : PyTuple_New(npairs);
    for (Py_ssize_t k = 0; out && k < npairs; k++) {
        PyObject *pair = int_pair(ints, flat + 2 * k);
        if (!pair || (as_list ? PyList_SetItem(out, k, pair) : PyTuple_SetItem(out, k, pair)) < 0) Py_CLEAR(out);
    }
    return as_list ? out : untracked(out);
}

static PyObject *number(double v, int floats) {
    return floats ? PyFloat_FromDouble(v) : PyLong_FromLongLong((long long)v);
}

/* ------------------------------------------------------------------------------------------
 * records: the one helper that fills the registered classes
 * ---------------------------------------------------------------------------------------- */

/* A new record of `kind` (of class `cls`, or the registered one when NULL) with its fields in
 * the order kernel_spec.record_fields gives (references stolen; a NULL value fails it). */
static PyObject *record(int kind, PyObject *cls, PyObject **values) {
    const Record *rec = &RECORDS[kind];
    int ok = rec->nfields > 0;
    for (int k = 0; k < rec->nfields; k++) ok &= values[k] != NULL;
    if (!rec->nfields && !PyErr_Occurred())
        PyErr_Format(PyExc_RuntimeError, "rouge_core._native: record kind %d was not registered "
                     "(rouge_core.kernels.native.register_records)", kind);
    PyObject *obj = !ok ? NULL : cls ? object_new((PyTypeObject *)cls, EMPTY_TUPLE, NULL) : rec->alloc((PyTypeObject *)rec->cls, 0);
    for (int k = 0; k < rec->nfields; k++) {
        if (obj && (rec->set[k] ? rec->set[k](rec->slot[k], obj, values[k])
                                : PyObject_GenericSetAttr(obj, rec->name[k], values[k])) < 0)
            Py_CLEAR(obj);
        Py_XDECREF(values[k]);
    }
    return obj;
}

/* *slot = value (a new reference), dropping the old one. */
static void replace_ref(PyObject **slot, PyObject *value) {
    PyObject *old = *slot;
    *slot = value;
    Py_XDECREF(old);
}

static void record_clear(Record *rec) {
    Py_CLEAR(rec->cls);
    for (int k = 0; k < rec->nfields; k++) {
        Py_CLEAR(rec->name[k]);
        Py_CLEAR(rec->slot[k]);
    }
    rec->nfields = 0;
}

/* Whether `fields` (a tuple) are the names this build fills for `kind`. */
static int fields_match(isize kind, PyObject *fields) {
    const char *const *want = RECORD_FIELD_NAMES[kind];
    Py_ssize_t n = PyTuple_Size(fields), k = 0;
    for (; k < n && want[k]; k++) {
        PyObject *name = PyTuple_GetItem(fields, k);
        const char *got = PyUnicode_Check(name) ? PyUnicode_AsUTF8AndSize(name, NULL) : NULL;
        if (!got || strcmp(got, want[k]) != 0) break;
    }
    PyErr_Clear();
    return k == n && !want[k];
}

/* configure_record(kind, cls, fields): the class of record `kind` (None for documents, whose
 * class each call names) and its fields, which must be the ones this build fills. */
static PyObject *py_configure_record(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    isize kind;
    if (check_nargs("configure_record", nargs, 3, 3) < 0 || as_isize(args[0], &kind) < 0) return NULL;
    if (kind < 0 || kind >= RECORD_KINDS) return PyErr_Format(PyExc_ValueError, "no record kind %zd", (Py_ssize_t)kind);
    PyObject *cls = args[1];
    if (cls == Py_None ? kind != REC_DOCUMENT : !PyType_Check(cls))
        return PyErr_Format(PyExc_TypeError, "a record class is needed (None only for documents, whose calls name theirs)");
    PyObject *fields = PySequence_Tuple(args[2]);
    if (!fields) return NULL;
    if (!fields_match(kind, fields)) {
        PyErr_Format(PyExc_ValueError, "%R has the fields %R, but rouge_core._native was built for others: rebuild it",
                     cls, fields);
        Py_DECREF(fields);
        return NULL;
    }
    Record *rec = &RECORDS[kind];
    record_clear(rec);
    rec->cls = Py_NewRef(cls);
    rec->alloc = cls == Py_None ? NULL : (allocfunc)PyType_GetSlot((PyTypeObject *)cls, Py_tp_alloc);
    for (Py_ssize_t k = 0; k < PyTuple_Size(fields); k++) {
        PyObject *name = PyTuple_GetItem(fields, k);
        Py_INCREF(name);
        PyUnicode_InternInPlace(&name);
        /* a slot's descriptor stores the field; anything else (a dict attribute, a class
         * default) is set as object.__setattr__ sets it */
        PyObject *d = cls != Py_None ? PyObject_GetAttr(cls, name) : NULL;
        PyErr_Clear();
        descrsetfunc set = d ? (descrsetfunc)PyType_GetSlot(Py_TYPE(d), Py_tp_descr_set) : NULL;
        if (!set) Py_CLEAR(d);
        rec->name[k] = name;
        rec->slot[k] = d;
        rec->set[k] = set;
        rec->nfields++;
    }
    Py_DECREF(fields);
    Py_RETURN_NONE;
}

/* configure_scoring(only_reference, no_evidence): the reason a single reference is chosen,
 * and the evidence of a score computed without it (rouge_core.scorer.scoring.NO_EVIDENCE). */
static PyObject *py_configure_scoring(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyUnicode_Check(args[0]))
        return PyErr_Format(PyExc_TypeError, "configure_scoring(only_reference: str, no_evidence)");
    replace_ref(&ONLY_REFERENCE, Py_NewRef(args[0]));
    replace_ref(&NO_EVIDENCE, Py_NewRef(args[1]));
    Py_RETURN_NONE;
}

/* f_measure(precision, recall, alpha): the kernels' F (spec_f_measure, rouge_core.stats.f_measure
 * in C), for the tests that compare the two. */
static PyObject *py_f_measure(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    double p, r, alpha;
    if (check_nargs("f_measure", nargs, 3, 3) < 0 || as_double(args[0], &p) < 0 || as_double(args[1], &r) < 0 ||
        as_double(args[2], &alpha) < 0)
        return NULL;
    return PyFloat_FromDouble(spec_f_measure(p, r, alpha));
}

/* A method, a getter and the end of their tables; a type's spec (`Name`Object is its struct,
 * Name_dealloc frees it): every type here is made from one (PyType_FromSpec). */
#define FASTCALL(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL
#define GETTER(name, f, doc) {name, (getter)(f), NULL, doc, NULL}
#define END {NULL}
#define TYPE_SPEC(Name, doc, ...)                                                                            \
    static PyType_Slot Name##_slots[] = {{Py_tp_dealloc, Name##_dealloc}, {Py_tp_doc, doc}, __VA_ARGS__, {0, NULL}}; \
    static PyType_Spec Name##_spec = {"rouge_core._native." #Name, sizeof(Name##Object), 0, Py_TPFLAGS_DEFAULT, Name##_slots}

/* ------------------------------------------------------------------------------------------
 * Tokens: one document (a Tok)
 * ---------------------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    Tok *tok;
    PyObject *terms; /* the terms, a tuple of str: the one given (their data lives there), or built on demand */
    PyObject **strs; /* a tokenizer's document: per id its str, built on demand */
    int given;       /* `terms` was given: the str of id k is terms[tok->first[k]] */
} TokensObject;

static int is_tokens(PyObject *o) { return PyObject_TypeCheck(o, TokensType); }

static Tok *tok_arg(PyObject *o, const char *what) {
    if (is_tokens(o)) return ((TokensObject *)o)->tok;
    PyErr_Format(PyExc_TypeError, "%s must be Tokens", what);
    return NULL;
}

static void Tokens_dealloc(TokensObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    if (self->strs) {
        for (isize v = 0; v < self->tok->nv; v++) Py_XDECREF(self->strs[v]);
        free(self->strs);
    }
    tok_free(self->tok);
    Py_XDECREF(self->terms);
    PyObject_Free(self);
    Py_DECREF(tp);
}

/* Tokens owning `t` (freed on failure); terms: the tuple its term data lives in, or NULL. */
static PyObject *tokens_wrap(Tok *t, PyObject *terms) {
    if (!t) return PyErr_NoMemory();
    TokensObject *o = PyObject_New(TokensObject, TokensType);
    if (!o) {
        tok_free(t);
        return NULL;
    }
    o->tok = t;
    o->terms = terms ? Py_NewRef(terms) : NULL;
    o->strs = NULL;
    o->given = terms != NULL;
    return (PyObject *)o;
}

/* A borrowed reference to the str of id `id`. */
static PyObject *term_str(TokensObject *self, i32 id) {
    if (self->given) return PyTuple_GetItem(self->terms, self->tok->first[id]);
    PyObject **strs = load_published((void *const *)&self->strs);
    if (!strs) {
        PyObject **fresh = xcalloc((size_t)self->tok->nv, sizeof(PyObject *));
        if (!fresh) return PyErr_NoMemory();
        strs = publish((void **)&self->strs, fresh);
        if (strs != fresh) free(fresh);
    }
    PyObject *s = load_published((void *const *)&strs[id]);
    if (s) return s;
    const Term *q = &self->tok->terms[id];
    s = PyUnicode_FromStringAndSize((const char *)q->data, q->len);
    if (!s) return NULL;
    PyObject *kept = publish((void **)&strs[id], s);
    if (kept != s) Py_DECREF(s);
    return kept;
}

/* A tuple of the terms of ids[0..n). */
static PyObject *gram_tuple(TokensObject *c, const i32 *ids, Py_ssize_t n) {
    PyObject *t = PyTuple_New(n);
    for (Py_ssize_t k = 0; t && k < n; k++) {
        PyObject *s = term_str(c, ids[k]);
        tuple_put(&t, k, Py_XNewRef(s));
    }
    return t;
}

static PyObject *Tokens_terms(TokensObject *self, PyObject *unused) {
    PyObject *terms = load_published((void *const *)&self->terms);
    if (!terms) {
        PyObject *fresh = gram_tuple(self, self->tok->ids, self->tok->n);
        if (!fresh) return NULL;
        terms = publish((void **)&self->terms, fresh);
        if (terms != fresh) Py_DECREF(fresh);
    }
    return Py_NewRef(terms);
}

static PyObject *Tokens_vocabulary(TokensObject *self, PyObject *unused) {
    PyObject *out = PyTuple_New(self->tok->nv);
    for (isize v = 0; out && v < self->tok->nv; v++) {
        PyObject *s = term_str(self, (i32)v);
        tuple_put(&out, v, Py_XNewRef(s));
    }
    return out;
}

static PyObject *Tokens_bounds(TokensObject *self, PyObject *unused) {
    Ints ints = {0};
    if (ints_init(&ints, self->tok->n + 1) < 0) return NULL;
    PyObject *out = int_pairs(&ints, self->tok->bounds, self->tok->nsent, 0);
    ints_free(&ints);
    return out;
}

static Py_ssize_t Tokens_len(TokensObject *self) { return self->tok->n; }

static PyObject *Tokens_get_distinct(TokensObject *self, void *closure) { return PyLong_FromSsize_t(self->tok->nv); }

static PyObject *Tokens_get_sentences(TokensObject *self, void *closure) { return PyLong_FromSsize_t(self->tok->nsent); }

static PyObject *refuse_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    PyErr_SetString(PyExc_TypeError, "rouge_core._native makes these objects itself");
    return NULL;
}

static PyMethodDef Tokens_methods[] = {
    {"terms", (PyCFunction)Tokens_terms, METH_NOARGS, "The terms, a tuple of str."},
    {"bounds", (PyCFunction)Tokens_bounds, METH_NOARGS, "The sentence bounds, (start, end) token indices."},
    {"vocabulary", (PyCFunction)Tokens_vocabulary, METH_NOARGS, "The distinct terms, in order of first occurrence."},
    END,
};
static PyGetSetDef Tokens_getset[] = {GETTER("distinct", Tokens_get_distinct, "how many distinct terms"),
                                      GETTER("sentences", Tokens_get_sentences, "how many sentences"), END};
TYPE_SPEC(Tokens, "One tokenized document: token ids, counts and sentence bounds.", {Py_tp_new, refuse_new},
          {Py_tp_methods, Tokens_methods}, {Py_tp_getset, Tokens_getset}, {Py_sq_length, Tokens_len});

/* (start, end) pairs within [0, limit] as an int array (2 per sentence). */
static i32 *bounds_of(PyObject *bounds, isize limit, isize *m_out) {
    PyObject *seq = PySequence_Tuple(bounds);
    if (!seq) return NULL;
    Py_ssize_t m = PyTuple_Size(seq);
    i32 *out = xmalloc((size_t)(2 * m) * sizeof(i32));
    int ok = out != NULL;
    if (!ok) PyErr_NoMemory();
    for (Py_ssize_t k = 0; ok && k < m; k++) {
        PyObject *pair = PySequence_Tuple(PyTuple_GetItem(seq, k));
        isize a = -1, e = -1;
        ok = pair && PyTuple_Size(pair) == 2 && as_isize(PyTuple_GetItem(pair, 0), &a) == 0 &&
             as_isize(PyTuple_GetItem(pair, 1), &e) == 0;
        Py_XDECREF(pair);
        if (ok && (a < 0 || e < a || e > limit)) {
            PyErr_SetString(PyExc_ValueError, "sentence bounds out of range");
            ok = 0;
        }
        if (!ok && !PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "bounds must be (start, end) pairs");
        if (ok) {
            out[2 * k] = (i32)a;
            out[2 * k + 1] = (i32)e;
        }
    }
    Py_DECREF(seq);
    if (!ok) {
        free(out);
        return NULL;
    }
    *m_out = m;
    return out;
}

/* A Tok of a tuple of str terms (which keeps their data) in sentences `bounds` (2 per
 * sentence, checked). NULL with a TypeError for terms that are not str. */
static Tok *tok_of_tuple(PyObject *terms, const i32 *bounds, isize nsent) {
    Py_ssize_t n = PyTuple_Size(terms);
    TermRef *refs = xmalloc((size_t)n * sizeof(TermRef));
    Tok *t = NULL;
    if (!refs) {
        PyErr_NoMemory();
        return NULL;
    }
    Py_ssize_t i = 0;
    while (i < n && utf8_of(PyTuple_GetItem(terms, i), &refs[i]) == 0) i++;
    if (i == n && !(t = tok_from_terms(refs, n, bounds, nsent))) PyErr_NoMemory();
    free(refs);
    return t;
}

/* Tokens of a tuple of str terms in sentences `bounds` (a sequence of (start, end); NULL: none). */
static PyObject *tokens_of_terms(PyObject *terms, PyObject *bounds) {
    isize m = 0;
    i32 *b = bounds ? bounds_of(bounds, PyTuple_Size(terms), &m) : NULL;
    if (bounds && !b) return NULL;
    Tok *t = tok_of_tuple(terms, b, m);
    free(b);
    return t ? tokens_wrap(t, terms) : NULL;
}

/* tokens(terms: tuple[str], bounds) -> Tokens */
static PyObject *py_tokens(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    if (check_nargs("tokens", nargs, 2, 2) < 0) return NULL;
    if (!PyTuple_Check(args[0])) return PyErr_Format(PyExc_TypeError, "terms must be a tuple");
    return tokens_of_terms(args[0], args[1]);
}

/* tokenize_text(text, rule) -> Tokens, or None for a text the tokenizers do not take (text_of) */
static PyObject *py_tokenize_text(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    TermRef text;
    int rule;
    if (check_nargs("tokenize_text", nargs, 2, 2) < 0 || as_rule(args[1], &rule) < 0) return NULL;
    if (!text_of(args[0], rule, &text)) Py_RETURN_NONE;
    return tokens_wrap(tokenize_text(text.data, text.len, rule), NULL);
}

/* tokens_mapped(tokens, mapping) -> Tokens: each distinct term (tokens.vocabulary()'s k-th)
 * replaced by mapping[k], a str, or None to drop its tokens (a stemmer and a stopword list
 * applied once per distinct term); the same sentences. A TypeError for a mapping of another
 * length or with items that are neither. */
static PyObject *py_tokens_mapped(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    if (check_nargs("tokens_mapped", nargs, 2, 2) < 0) return NULL;
    Tok *t = tok_arg(args[0], "tokens_mapped's first argument");
    if (!t) return NULL;
    PyObject *mapping = args[1];
    if (!PyTuple_Check(mapping) || PyTuple_Size(mapping) != t->nv)
        return PyErr_Format(PyExc_TypeError, "the mapping must be a tuple of one str or None per distinct term");
    TermRef *to = xcalloc((size_t)t->nv + 1, sizeof(TermRef));
    i32 *origin = xmalloc(((size_t)t->nv + 1) * sizeof(i32));
    PyObject *out = NULL;
    if (!to || !origin) {
        PyErr_NoMemory();
        goto done;
    }
    for (isize v = 0; v < t->nv; v++) {
        PyObject *item = PyTuple_GetItem(mapping, v);
        if (item != Py_None && utf8_of(item, &to[v]) < 0) goto done;
    }
    Tok *m = tok_mapped(t, to, origin);
    if (!(out = tokens_wrap(m, NULL))) goto done;
    /* the new terms' data lives in the mapping's str, held per id as a tokenizer's are */
    PyObject **strs = xcalloc((size_t)m->nv + 1, sizeof(PyObject *));
    if (!strs) {
        Py_CLEAR(out);
        PyErr_NoMemory();
        goto done;
    }
    for (isize k = 0; k < m->nv; k++) strs[k] = Py_NewRef(PyTuple_GetItem(mapping, origin[k]));
    ((TokensObject *)out)->strs = strs;
done:
    FREE_ALL(to, origin);
    return out;
}

/* ------------------------------------------------------------------------------------------
 * StemMap: a shared table of stems (kernels/stems.c) in front of a Python function
 * ---------------------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    StemTable *table;
    PyObject *keep; /* term -> its stem (str), or None for a dropped word */
} StemMapObject;

static void StemMap_dealloc(StemMapObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    stems_free(self->table);
    Py_XDECREF(self->keep);
    PyObject_Free(self);
    Py_DECREF(tp);
}

enum { STEM_NOT_STR = -2, STEM_RAISED = -3 };

typedef struct {
    StemMapObject *map;
    int keep_error; /* leave the function's exception set (the caller holds the GIL and returns it) */
} StemCall;

/* A word the table does not have, given to the map's function with the GIL taken (a batch's
 * run does not hold it; a call from Python does, and PyGILState_Ensure allows that). */
static int stem_miss(void *ctx, const unsigned char *word, isize len, unsigned char **out, isize *out_len,
                     int *dropped) {
    StemCall *call = ctx;
    PyGILState_STATE gil = PyGILState_Ensure();
    int rc = 0;
    PyObject *term = PyUnicode_DecodeUTF8((const char *)word, len, NULL);
    PyObject *stem = term ? call1(call->map->keep, term) : NULL;
    Py_XDECREF(term);
    if (!stem) {
        rc = STEM_RAISED;
    } else if (stem == Py_None) {
        *dropped = 1;
    } else if (!PyUnicode_Check(stem)) {
        rc = STEM_NOT_STR;
    } else {
        Py_ssize_t n;
        const char *data = PyUnicode_AsUTF8AndSize(stem, &n);
        if (!data || !(*out = xmalloc((size_t)n + 1))) {
            rc = data ? -1 : STEM_RAISED;
        } else {
            memcpy(*out, data, (size_t)n);
            *out_len = n;
        }
    }
    Py_XDECREF(stem);
    if (rc == STEM_RAISED && !call->keep_error) PyErr_Clear();
    PyGILState_Release(gil);
    return rc;
}

/* stem_map(keep, capacity) -> StemMap: keep(term) -> str or None, called once per word type
 * (the table holds at most `capacity` words: full, it starts afresh). */
static PyObject *py_stem_map(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    isize capacity;
    if (check_nargs("stem_map", nargs, 2, 2) < 0 || as_isize(args[1], &capacity) < 0) return NULL;
    if (!PyCallable_Check(args[0])) return PyErr_Format(PyExc_TypeError, "stem_map's first argument must be callable");
    if (capacity < 1) return PyErr_Format(PyExc_ValueError, "the capacity must be at least 1");
    StemMapObject *self = PyObject_New(StemMapObject, StemMapType);
    if (!self) return NULL;
    self->keep = Py_NewRef(args[0]);
    if (!(self->table = stems_new(capacity))) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    return (PyObject *)self;
}

static PyObject *StemMap_clear(StemMapObject *self, PyObject *unused) {
    stems_clear(self->table);
    Py_RETURN_NONE;
}

static Py_ssize_t StemMap_len(StemMapObject *self) { return stems_size(self->table); }

static PyObject *StemMap_get_locked_reads(StemMapObject *self, void *closure) {
    return PyLong_FromUnsignedLongLong(stems_locked_reads(self->table));
}

static PyGetSetDef StemMap_getset[] = {
    GETTER("locked_reads", StemMap_get_locked_reads,
           "texts whose words were looked up in the shared table, its lock taken (a batch's thread looks in its own "
           "copy first)"),
    END,
};

static PyMethodDef StemMap_methods[] = {
    {"clear", (PyCFunction)StemMap_clear, METH_NOARGS, "clear(): forget every stem (the function stays)"},
    END,
};
TYPE_SPEC(StemMap, "Stems per word type, shared by every thread (see stem_map).", {Py_tp_new, refuse_new},
          {Py_tp_methods, StemMap_methods}, {Py_tp_getset, StemMap_getset}, {Py_mp_length, StemMap_len});

static StemMapObject *stem_map_arg(PyObject *o) {
    if (PyObject_TypeCheck(o, StemMapType)) return (StemMapObject *)o;
    PyErr_SetString(PyExc_TypeError, "a StemMap is needed");
    return NULL;
}

/* tokens_stemmed(tokens, stem_map) -> Tokens: tokens_mapped with the map's function, each word
 * type looked up in its table (stemmed by the function the first time); None when the
 * function gives something that is neither a str nor None (the Python pipeline decides). */
static PyObject *py_tokens_stemmed(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    if (check_nargs("tokens_stemmed", nargs, 2, 2) < 0) return NULL;
    Tok *t = tok_arg(args[0], "tokens_stemmed's first argument");
    StemMapObject *map = t ? stem_map_arg(args[1]) : NULL;
    if (!map) return NULL;
    StemCall call = {map, 1};
    int rc;
    Tok *m = tok_stemmed(t, map->table, NULL, stem_miss, &call, &rc);
    if (m) return tokens_wrap(m, NULL);
    if (rc == STEM_NOT_STR) Py_RETURN_NONE;
    if (rc == STEM_RAISED) return NULL;
    return PyErr_NoMemory();
}

/* A `cls` instance (a Document subclass of rouge_core.text.tokenize) of a text: the text, no `-b`
 * view, the tokenizer's settings and a memo holding, under `key`, the Tokens when given. */
static PyObject *native_document(PyObject *cls, PyObject *text, PyObject *lazy_args, PyObject *key, PyObject *tokens) {
    PyObject *memo = PyDict_New();
    if (memo && tokens && PyDict_SetItem(memo, key, tokens) < 0) Py_CLEAR(memo);
    PyObject *v[DOCUMENT_FIELDS];
    v[DOCUMENT_TEXT] = Py_NewRef(text);
    v[DOCUMENT_LCS_VIEW] = Py_NewRef(Py_None);
    v[DOCUMENT_LAZY_ARGS] = Py_NewRef(lazy_args);
    v[DOCUMENT_MEMO] = memo;
    return record(REC_DOCUMENT, cls, v);
}

/* text_document(cls, rule, lazy_args, key, text[, most_tokens, most_types]) -> a cls of the text,
 * tokenized here; None for a text the tokenizers do not take (text_of); (1, at) when the text has
 * more than most_tokens tokens, (2, at) more than most_types word types, `at` the UTF-8 byte where
 * the word past them starts (the tokenizer stops there: tokenize_text_capped) */
static PyObject *py_text_document(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    TermRef text;
    int rule, over = 0;
    isize most_tokens = ISIZE_MAX, most_types = ISIZE_MAX, stopped_at = 0;
    if (check_nargs("text_document", nargs, 5, 7) < 0 || as_rule(args[1], &rule) < 0 ||
        (nargs > 5 && as_isize(args[5], &most_tokens) < 0) || (nargs > 6 && as_isize(args[6], &most_types) < 0))
        return NULL;
    if (!text_of(args[4], rule, &text)) Py_RETURN_NONE;
    Tok *built = tokenize_text_capped(text.data, text.len, rule, most_tokens, most_types, &over, &stopped_at);
    if (over) return Py_BuildValue("(in)", over, (Py_ssize_t)stopped_at);
    PyObject *tokens = tokens_wrap(built, NULL);
    if (!tokens) return NULL;
    PyObject *doc = native_document(args[0], args[4], args[2], args[3], tokens);
    Py_DECREF(tokens);
    return doc;
}

/* configure_lowering(ok): whether the compiled lowering table is the running Python's (else
 * non-ASCII text under WORDS_LOWER_UNICODE is not taken). */
static PyObject *py_configure_lowering(PyObject *mod, PyObject *arg) {
    int ok;
    if (as_flag(arg, &ok) < 0) return NULL;
    LOWERING_OK = ok;
    Py_RETURN_NONE;
}

/* A sequence of terms (str; anything else matches nothing) as candidate ids. */
static i32 *rows_of_seq(const Tok *c, PyObject *seq, isize *n_out) {
    PyObject *items = PySequence_Tuple(seq);
    if (!items) return NULL;
    Py_ssize_t n = PyTuple_Size(items);
    i32 *rows = xmalloc((size_t)n * sizeof(i32));
    if (!rows) {
        Py_DECREF(items);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        TermRef ref;
        if (utf8_of(PyTuple_GetItem(items, i), &ref) < 0) {
            PyErr_Clear();
            rows[i] = -1;
            continue;
        }
        Term q = term_make(ref.data, ref.len);
        rows[i] = tok_find(c, &q);
    }
    Py_DECREF(items);
    *n_out = n;
    return rows;
}

/* ------------------------------------------------------------------------------------------
 * Layout: rouge_core.families.bitparallel_lcs.CandidateLayout's interface over a Lay
 * ---------------------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    PyObject *tokens; /* the Tokens whose Tok holds the Lay */
    Lay *lay;
} LayoutObject;

static void Layout_dealloc(LayoutObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    Py_XDECREF(self->tokens);
    PyObject_Free(self);
    Py_DECREF(tp);
}

static PyObject *layout_of_tokens(PyObject *tokens) {
    Lay *l = tok_layout(((TokensObject *)tokens)->tok);
    if (!l) return PyErr_NoMemory();
    LayoutObject *o = PyObject_New(LayoutObject, LayoutType);
    if (!o) return NULL;
    o->tokens = Py_NewRef(tokens);
    o->lay = l;
    return (PyObject *)o;
}

/* Layout(cand, bounds) */
static PyObject *Layout_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    PyObject *cand, *bounds;
    static char *kwlist[] = {"cand", "bounds", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO", kwlist, &cand, &bounds)) return NULL;
    PyObject *terms = PySequence_Tuple(cand);
    PyObject *tokens = terms ? tokens_of_terms(terms, bounds) : NULL;
    Py_XDECREF(terms);
    PyObject *o = tokens ? layout_of_tokens(tokens) : NULL;
    Py_XDECREF(tokens);
    return o;
}

/* layout_of(tokens) -> Layout of the document's sentences */
static PyObject *py_layout_of(PyObject *mod, PyObject *arg) {
    return tok_arg(arg, "layout_of's argument") ? layout_of_tokens(arg) : NULL;
}

static const Tok *layout_tok(LayoutObject *self) { return ((TokensObject *)self->tokens)->tok; }

static PyObject *Layout_lcs_length(LayoutObject *self, PyObject *seq) {
    isize n;
    i32 *rows = rows_of_seq(layout_tok(self), seq, &n);
    u64 *work = rows ? xmalloc((size_t)self->lay->W * sizeof(u64)) : NULL;
    PyObject *out = work ? PyLong_FromSsize_t(lay_lcs_length(self->lay, rows, n, work)) : NULL;
    if (rows && !work) PyErr_NoMemory();
    FREE_ALL(rows, work);
    return out;
}

static PyObject *Layout_sentence_lcs_lengths(LayoutObject *self, PyObject *seq) {
    isize n;
    const Lay *l = self->lay;
    i32 *rows = rows_of_seq(layout_tok(self), seq, &n);
    if (!rows) return NULL;
    u64 *work = xmalloc((size_t)l->W * sizeof(u64));
    isize *lengths = xmalloc((size_t)l->nsent * sizeof(isize));
    PyObject *out = work && lengths ? PyList_New(l->nsent) : PyErr_NoMemory();
    if (out) lay_sentence_lengths(l, rows, n, work, lengths);
    for (isize s = 0; out && s < l->nsent; s++) {
        PyObject *v = PyLong_FromSsize_t(lengths[s]);
        if (!v || PyList_SetItem(out, s, v) < 0) Py_CLEAR(out);
    }
    FREE_ALL(rows, work, lengths);
    return out;
}

static PyObject *Layout_unigram_hits(LayoutObject *self, PyObject *seq) {
    isize n;
    i32 *rows = rows_of_seq(layout_tok(self), seq, &n);
    i32 *seen = rows ? xcalloc((size_t)self->lay->nv, sizeof(i32)) : NULL;
    PyObject *out = seen ? PyLong_FromSsize_t(lay_unigram_hits(self->lay, rows, n, seen)) : NULL;
    if (rows && !seen) PyErr_NoMemory();
    FREE_ALL(rows, seen);
    return out;
}

/* The found positions of the traceback of `ref` (in sentences `bounds`; NULL: one sentence)
 * as a list; with `alignments` (a dict, not NULL), alignments[sentence].append((i, column))
 * per walker bit, as CandidateLayout._record does. With `hits`, the clipped hit count instead. */
static PyObject *layout_trace(LayoutObject *self, PyObject *ref, PyObject *bounds, PyObject *alignments, int hits) {
    isize n, m = 1;
    Lay *l = self->lay;
    i32 *rows = rows_of_seq(layout_tok(self), ref, &n);
    if (!rows) return NULL;
    i32 single[2] = {0, (i32)n}, *bnd = bounds ? bounds_of(bounds, n, &m) : single;
    IVec found = {0}, triples = {0};
    UVec diag = {0};
    i32 *seen = NULL;
    PyObject *out = NULL;
    Ints ints = {0};
    int want = alignments != NULL && alignments != Py_None;
    if (!bnd) goto done;
    if (lay_trace_sentences(l, rows, bnd, m, &found, want ? &diag : NULL) < 0 ||
        (want && m > 0 && lay_alignments(l, &found, &diag, bnd[0], &triples) < 0) ||
        (hits && !(seen = xcalloc((size_t)l->nv, sizeof(i32))))) {
        PyErr_NoMemory();
        goto done;
    }
    if (ints_init(&ints, n + l->width + 1) < 0) goto done;
    for (isize k = 0; k < triples.n; k += 3) {
        PyObject *key = int_of(&ints, triples.v[k]), *pair = int_pair(&ints, triples.v + k + 1);
        PyObject *list = key ? PyDict_GetItemWithError(alignments, key) : NULL;
        if (key && !list && !PyErr_Occurred()) {
            list = PyList_New(0);
            if (list && PyDict_SetItem(alignments, key, list) < 0) Py_CLEAR(list);
            Py_XDECREF(list); /* the dict holds it */
        }
        int ok = list && pair && PyList_Append(list, pair) == 0;
        Py_XDECREF(key);
        Py_XDECREF(pair);
        if (!ok) goto done;
    }
    if (hits) {
        out = PyLong_FromSsize_t(lay_clipped_hits(l, rows, &found, seen));
    } else {
        out = PyList_New(found.n);
        for (isize k = 0; out && k < found.n; k++) {
            PyObject *v = int_of(&ints, found.v[k]);
            if (!v || PyList_SetItem(out, k, v) < 0) Py_CLEAR(out);
        }
    }
done:
    ints_free(&ints);
    free(rows);
    if (bnd != single) free(bnd);
    FREE_ALL(found.v, triples.v, diag.v, seen);
    return out;
}

static PyObject *Layout_union_positions(LayoutObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (check_nargs("union_positions", nargs, 1, 2) < 0) return NULL;
    return layout_trace(self, args[0], NULL, nargs > 1 ? args[1] : NULL, 0);
}

static PyObject *Layout_union_positions_of(LayoutObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (check_nargs("union_positions_of", nargs, 2, 3) < 0) return NULL;
    return layout_trace(self, args[0], args[1], nargs > 2 ? args[2] : NULL, 0);
}

static PyObject *Layout_union_hits(LayoutObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (check_nargs("union_hits", nargs, 2, 2) < 0) return NULL;
    return layout_trace(self, args[0], args[1], NULL, 1);
}

static PyObject *Layout_alignments(LayoutObject *self, PyObject *ref) {
    PyObject *out = PyDict_New();
    PyObject *positions = out ? layout_trace(self, ref, NULL, out, 0) : NULL;
    if (!positions) Py_CLEAR(out);
    Py_XDECREF(positions);
    return out;
}

static PyObject *Layout_get_sentences(LayoutObject *self, void *closure) { return PyLong_FromSsize_t(self->lay->nsent); }

static PyMethodDef Layout_methods[] = {
    {"lcs_length", (PyCFunction)Layout_lcs_length, METH_O, "LCS of seq with the candidate tokens as one sequence."},
    {"sentence_lcs_lengths", (PyCFunction)Layout_sentence_lcs_lengths, METH_O, "LCS of seq with each sentence."},
    {"unigram_hits", (PyCFunction)Layout_unigram_hits, METH_O, "ROUGE-1 hits of seq against the candidate."},
    {"union_positions", FASTCALL(Layout_union_positions), "Union LCS positions of one sentence."},
    {"union_positions_of", FASTCALL(Layout_union_positions_of), "Union LCS positions per sentence."},
    {"union_hits", FASTCALL(Layout_union_hits), "Summary-level LCS hits."},
    {"alignments", (PyCFunction)Layout_alignments, METH_O, "Aligned pairs per candidate sentence."},
    END,
};
static PyGetSetDef Layout_getset[] = {GETTER("sentences", Layout_get_sentences, "how many sentences"), END};
TYPE_SPEC(Layout, "rouge_core.families.bitparallel_lcs.CandidateLayout, compiled: Layout(cand, bounds).", {Py_tp_new, Layout_new},
          {Py_tp_methods, Layout_methods}, {Py_tp_getset, Layout_getset});

/* ------------------------------------------------------------------------------------------
 * Plans: the methods of a call, read once: per plan (kernel, a, b, w, method, name, signature
 * [, F rule]). The F rule of a family with its own (rouge_core.stats.FMeasureRule, as
 * rouge_core.scorer.scoring.kernel_f_rule gives it): the alpha of its F, or a function making
 * its whole Score from the statistics; without one, the call's rule (ScoreRule).
 * ---------------------------------------------------------------------------------------- */

typedef struct {
    KPlan *k;
    PyObject **method, **name, **sig, **score_fn; /* borrowed from `source`; score_fn NULL: none */
    double *alpha;                                /* NAN: the call's */
    Py_ssize_t n;
    int any_score_fn;
} PlanList;

typedef struct {
    PyObject_HEAD
    PlanList p;
    PyObject *source; /* the tuple the plans were read from */
} PlansObject;

static void planlist_free(PlanList *p) {
    FREE_ALL(p->k, p->method, p->alpha);
    memset(p, 0, sizeof(*p));
}

static int plans_parse(PyObject *plans, PlanList *out) {
    memset(out, 0, sizeof(*out));
    if (!PyTuple_Check(plans)) {
        PyErr_SetString(PyExc_TypeError, "plans must be a tuple");
        return -1;
    }
    Py_ssize_t n = PyTuple_Size(plans);
    out->k = xmalloc((size_t)n * sizeof(KPlan));
    out->method = xmalloc((size_t)(4 * n + 1) * sizeof(PyObject *));
    out->alpha = xmalloc((size_t)(n + 1) * sizeof(double));
    if (!out->k || !out->method || !out->alpha) {
        planlist_free(out);
        PyErr_NoMemory();
        return -1;
    }
    out->name = out->method + n;
    out->sig = out->method + 2 * n;
    out->score_fn = out->method + 3 * n;
    out->n = n;
    for (Py_ssize_t i = 0; i < n; i++) {
        KPlan *k = &out->k[i];
        PyObject *f_rule = Py_None;
        out->alpha[i] = NAN;
        out->score_fn[i] = NULL;
        if (!PyArg_ParseTuple(PyTuple_GetItem(plans, i), "iLLdOOO|O", &k->code, &k->a, &k->b, &k->w, &out->method[i],
                              &out->name[i], &out->sig[i], &f_rule) ||
            (f_rule != Py_None && !PyCallable_Check(f_rule) && as_double(f_rule, &out->alpha[i]) < 0)) {
            planlist_free(out);
            return -1;
        }
        if (f_rule != Py_None && PyCallable_Check(f_rule)) {
            out->score_fn[i] = f_rule;
            out->any_score_fn = 1;
        }
        const char *problem = kplan_problem(k);
        if (problem) {
            planlist_free(out);
            PyErr_Format(PyExc_ValueError, "bad kernel plan: %s", problem);
            return -1;
        }
    }
    return 0;
}

/* The plans of a Plans object (borrowed: *owned = 0) or parsed from a tuple (*owned = 1). */
static int plans_get(PyObject *obj, PlanList *out, int *owned) {
    *owned = !PyObject_TypeCheck(obj, PlansType);
    if (*owned) return plans_parse(obj, out);
    *out = ((PlansObject *)obj)->p;
    return 0;
}

static void Plans_dealloc(PlansObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    planlist_free(&self->p);
    Py_XDECREF(self->source);
    PyObject_Free(self);
    Py_DECREF(tp);
}

static PyObject *Plans_iter(PlansObject *self) { return PyObject_GetIter(self->source); }

static Py_ssize_t Plans_len(PlansObject *self) { return self->p.n; }

TYPE_SPEC(Plans, "Methods planned for score_pair / batch_job, read once (iterates over the plan tuples).",
          {Py_tp_new, refuse_new}, {Py_tp_iter, Plans_iter}, {Py_sq_length, Plans_len});

/* plans(tuple of (kernel, a, b, w, method, name, signature)) -> Plans */
static PyObject *py_plans(PyObject *mod, PyObject *arg) {
    PlansObject *o = PyObject_New(PlansObject, PlansType);
    if (!o) return NULL;
    o->source = NULL;
    if (plans_parse(arg, &o->p) < 0) {
        Py_DECREF(o);
        return NULL;
    }
    o->source = Py_NewRef(arg);
    return (PyObject *)o;
}

/* ------------------------------------------------------------------------------------------
 * score records: Stats, Score, ReferenceScore, MethodScore (rouge_core.scorer.scoring)
 * ---------------------------------------------------------------------------------------- */

/* One method on one reference: its statistics and the precision and recall they give. */
typedef struct {
    KStats s;
    double p, r;
} Scored;

/* How the scores are made: F by the F-measure rule (spec_f_measure) at `alpha`, or the whole
 * Score by score_fn(stats) (ROUGE-1.5.5's rounding; not None). A plan's own F rule overrides it
 * (plan_rule). */
typedef struct {
    double alpha;
    PyObject *score_fn;
    int empty_nan;
} ScoreRule;

static int rule_of(PyObject *alpha, PyObject *empty_nan, PyObject *score_fn, ScoreRule *rule) {
    if (as_double(alpha, &rule->alpha) < 0 || as_flag(empty_nan, &rule->empty_nan) < 0) return -1;
    if (!ONLY_REFERENCE || !NO_EVIDENCE) {
        PyErr_SetString(PyExc_RuntimeError, "rouge_core._native: configure_scoring was not called");
        return -1;
    }
    rule->score_fn = score_fn == Py_None ? NULL : score_fn;
    return 0;
}

/* The rule of plan k: the call's, or the plan's own alpha or score function. */
static ScoreRule plan_rule(const ScoreRule *call, const PlanList *plans, Py_ssize_t k) {
    ScoreRule rule = *call;
    if (!isnan(plans->alpha[k])) rule.alpha = plans->alpha[k];
    if (plans->score_fn[k]) rule.score_fn = plans->score_fn[k];
    return rule;
}

static PyObject *stats_record(const KStats *s) {
    PyObject *v[STATS_FIELDS];
    v[STATS_HITS] = number(s->hits, s->floats);
    v[STATS_CAND_TOTAL] = number(s->ct, s->floats);
    v[STATS_REF_TOTAL] = number(s->rt, s->floats);
    v[STATS_EXPONENT] = s->exponent == 1.0 ? Py_NewRef(FLOAT_ONE) : PyFloat_FromDouble(s->exponent);
    v[STATS_REF_BASE] = s->base_kind == BASE_NONE  ? Py_NewRef(Py_None)
                        : s->base_kind == BASE_INT ? PyLong_FromLongLong((long long)s->base)
                                                   : PyFloat_FromDouble(s->base);
    return record(REC_STATS, NULL, v);
}

static PyObject *score_record(const Scored *sc, PyObject *stats, const ScoreRule *rule) {
    if (rule->score_fn) return call1(rule->score_fn, stats);
    PyObject *v[SCORE_FIELDS];
    v[SCORE_PRECISION] = PyFloat_FromDouble(sc->p);
    v[SCORE_RECALL] = PyFloat_FromDouble(sc->r);
    v[SCORE_FMEASURE] = PyFloat_FromDouble(spec_f_measure(sc->p, sc->r, rule->alpha));
    return record(REC_SCORE, NULL, v);
}

/* How several references' records are combined in C (rouge_core.scorer.scoring.combine_references's
 * modes without a score_fn; any other mode is combined in Python). */
enum { COMBINE_NONE = 0, COMBINE_BEST_F = 1, COMBINE_BEST_RECALL = 2 };

/* How several references are combined in C: `combine` unless a score function makes a score
 * (its references are then combined in Python). */
static int combine_in_c(const ScoreRule *rule, const PlanList *plans, isize combine) {
    return rule->score_fn || plans->any_score_fn ? COMBINE_NONE : (int)combine;
}

/* f"{v:.4f}" */
static PyObject *four_places(double v) {
    char *text = PyOS_double_to_string(v, 'f', 4, 0, NULL);
    if (!text) return NULL;
    PyObject *out = PyUnicode_FromString(text);
    PyMem_Free(text);
    return out;
}

/* combine_references's reason for choosing reference `best` of `values`. */
static PyObject *best_reason(const double *values, Py_ssize_t n, Py_ssize_t best, int mode) {
    PyObject *others = PyList_New(0), *sep = PyUnicode_FromString(", "), *joined = NULL, *top = NULL, *out = NULL;
    for (Py_ssize_t i = 0; others && i < n; i++) {
        if (i == best) continue;
        PyObject *v = four_places(values[i]);
        if (!v || PyList_Append(others, v) < 0) Py_CLEAR(others);
        Py_XDECREF(v);
    }
    joined = others && sep ? PyUnicode_Join(sep, others) : NULL;
    top = joined ? four_places(values[best]) : NULL;
    if (top)
        out = PyUnicode_FromFormat("highest %s %U (others: %U); ties go to the first",
                                   mode == COMBINE_BEST_F ? "F" : "recall", top, joined);
    Py_XDECREF(others);
    Py_XDECREF(sep);
    Py_XDECREF(joined);
    Py_XDECREF(top);
    return out;
}

/* The records of one plan against every reference (per_ref: nrefs Scored): with one
 * reference, its MethodScore (the reference chosen as the only one), and with several under
 * `combine`, the MethodScore of the first reference with the highest F (or recall), both
 * stored in `out` (a dict) under the plan's name; else the tuple of ReferenceScores stored at
 * out[k] (a list, combined in Python). */
static int plan_records(const PlanList *plans, Py_ssize_t k, const Scored *per_ref, Py_ssize_t nrefs,
                        const ScoreRule *call_rule, int combine, PyObject *out) {
    const ScoreRule own = plan_rule(call_rule, plans, k), *rule = &own;
    PyObject *per = PyTuple_New(nrefs);
    PyObject **kept = per ? PyMem_Calloc((size_t)(2 * nrefs), sizeof(PyObject *)) : NULL; /* stats, score */
    double *values = kept ? PyMem_Calloc((size_t)nrefs, sizeof(double)) : NULL;
    int rc = -1, whole = nrefs == 1 || (nrefs > 1 && combine != COMBINE_NONE);
    if (!values) {
        if (per) PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < nrefs; i++) {
        PyObject *v[REFERENCE_SCORE_FIELDS];
        PyObject *stats = stats_record(&per_ref[i].s);
        PyObject *score = stats ? score_record(&per_ref[i], stats, rule) : NULL;
        kept[2 * i] = Py_XNewRef(stats);
        kept[2 * i + 1] = Py_XNewRef(score);
        values[i] = combine == COMBINE_BEST_RECALL ? per_ref[i].r : spec_f_measure(per_ref[i].p, per_ref[i].r, rule->alpha);
        v[REFERENCE_SCORE_INDEX] = PyLong_FromSsize_t(i);
        v[REFERENCE_SCORE_STATS] = stats;
        v[REFERENCE_SCORE_SCORE] = score;
        v[REFERENCE_SCORE_EVIDENCE] = Py_NewRef(NO_EVIDENCE);
        PyObject *ref = record(REC_REFERENCE_SCORE, NULL, v);
        if (!ref || PyTuple_SetItem(per, i, ref) < 0) goto done;
    }
    if (!whole) {
        rc = PyList_SetItem(out, k, per);
        per = NULL;
        goto done;
    }
    Py_ssize_t best = 0; /* the first maximum; a number beats NaN (scoring._first_max) */
    for (Py_ssize_t i = 1; i < nrefs; i++)
        if (values[i] > values[best] || (isnan(values[best]) && !isnan(values[i]))) best = i;
    PyObject *v[METHOD_SCORE_FIELDS];
    v[METHOD_SCORE_METHOD] = Py_NewRef(plans->method[k]);
    v[METHOD_SCORE_SCORE] = Py_NewRef(kept[2 * best + 1]);
    v[METHOD_SCORE_PER_REFERENCE] = per;
    per = NULL;
    v[METHOD_SCORE_CHOSEN] = PyLong_FromSsize_t(best);
    v[METHOD_SCORE_REASON] = nrefs == 1 ? Py_NewRef(ONLY_REFERENCE) : best_reason(values, nrefs, best, combine);
    v[METHOD_SCORE_STATS] = Py_NewRef(kept[2 * best]);
    v[METHOD_SCORE_SIGNATURE] = Py_NewRef(plans->sig[k]);
    PyObject *ms = record(REC_METHOD_SCORE, NULL, v);
    rc = ms ? PyDict_SetItem(out, plans->name[k], ms) : -1;
    Py_XDECREF(ms);
done:
    Py_XDECREF(per);
    for (Py_ssize_t i = 0; kept && i < 2 * nrefs; i++) Py_XDECREF(kept[i]);
    PyMem_Free(kept);
    PyMem_Free(values);
    return rc;
}

/* Every plan's records (scored: per plan, per reference): a dict of MethodScore by name for
 * one reference or several under `combine`, else per plan a tuple of ReferenceScore (combined
 * in Python, no reference included). */
static PyObject *pair_records(const PlanList *plans, const Scored *scored, Py_ssize_t nrefs, const ScoreRule *rule,
                              int combine) {
    PyObject *out = nrefs == 1 || (nrefs > 1 && combine != COMBINE_NONE) ? PyDict_New() : PyList_New(plans->n);
    for (Py_ssize_t k = 0; out && k < plans->n; k++)
        if (plan_records(plans, k, scored + k * nrefs, nrefs, rule, combine, out) < 0) Py_CLEAR(out);
    return out;
}

/* Each plan on candidate c against reference r (rows, ref_count: r joined to c), into
 * scored[k * nrefs + i]. -1 on no memory. */
static int score_reference(Tok *c, const Tok *r, const i32 *rows, const i32 *ref_count, const PlanList *plans,
                           KWork *w, int empty_nan, Scored *scored, Py_ssize_t nrefs, Py_ssize_t i) {
    for (Py_ssize_t k = 0; k < plans->n; k++) {
        Scored *sc = &scored[k * nrefs + i];
        if (pair_stats(c, r, rows, ref_count, &plans->k[k], w, &sc->s) < 0) return -1;
        score_ratios(&sc->s, empty_nan, &sc->p, &sc->r);
    }
    return 0;
}

/* score_pair(plans, cand, refs, alpha, empty_nan, score_fn[, max_side[, combine]]): every
 * planned method on one candidate (Tokens) against its references (a tuple of Tokens); records
 * as pair_records gives them (combine: as score_texts reads it), or None when a side has more
 * than max_side tokens or sentences (its cost must be estimated first). */
static PyObject *py_score_pair(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    isize max_side = ISIZE_MAX, combine = COMBINE_NONE;
    ScoreRule rule;
    if (check_nargs("score_pair", nargs, 6, 8) < 0 || (nargs > 6 && as_isize(args[6], &max_side) < 0) ||
        (nargs > 7 && as_isize(args[7], &combine) < 0) || rule_of(args[3], args[4], args[5], &rule) < 0)
        return NULL;
    if (combine < COMBINE_NONE || combine > COMBINE_BEST_RECALL)
        return PyErr_Format(PyExc_ValueError, "score_pair: no way of combining references %zd", (Py_ssize_t)combine);
    Tok *c = tok_arg(args[1], "the candidate");
    if (!c) return NULL;
    if (!PyTuple_Check(args[2])) return PyErr_Format(PyExc_TypeError, "references must be a tuple of Tokens");
    Py_ssize_t nrefs = PyTuple_Size(args[2]);
    Tok **refs = xmalloc((size_t)nrefs * sizeof(Tok *));
    if (!refs) return PyErr_NoMemory();
    int over = c->n > max_side || c->nsent > max_side;
    isize tokens = c->n;
    for (Py_ssize_t i = 0; i < nrefs; i++) {
        if (!(refs[i] = tok_arg(PyTuple_GetItem(args[2], i), "a reference"))) {
            free(refs);
            return NULL;
        }
        over |= refs[i]->n > max_side || refs[i]->nsent > max_side;
        tokens += refs[i]->n;
    }
    PlanList plans;
    int owned, failed = 0;
    PyObject *out = NULL;
    Scored *scored = NULL;
    if (over) {
        out = Py_NewRef(Py_None);
        goto done;
    }
    if (plans_get(args[0], &plans, &owned) < 0) goto done;
    scored = xmalloc((size_t)(plans.n * nrefs) * sizeof(Scored));
    KWork *w = scored ? kwork_acquire() : NULL;
    failed = !w || kwork_ready(w, c) < 0;
    PyThreadState *save = tokens > RELEASE_GIL_TOKENS ? PyEval_SaveThread() : NULL;
    for (Py_ssize_t i = 0; i < nrefs && !failed; i++)
        failed = kwork_join(w, c, refs[i]) < 0 ||
                 score_reference(c, refs[i], w->rows, w->ref_count, &plans, w, rule.empty_nan, scored, nrefs, i) < 0;
    if (save) PyEval_RestoreThread(save);
    kwork_release(w);
    out = failed ? PyErr_NoMemory() : pair_records(&plans, scored, nrefs, &rule, combine_in_c(&rule, &plans, combine));
    if (owned) planlist_free(&plans);
done:
    FREE_ALL(refs, scored);
    return out;
}

/* score_texts(cand_cls, ref_cls, word_rule, lazy_args, key, plans, cand, refs, alpha,
 *             empty_nan, score_fn, max_side) -> (cand document, reference documents, records)
 *
 * score_pair on texts (cand: str, refs: a tuple of str) under the tokenizers of rouge-score and
 * ROUGE-1.5.5 (word_rule: WORDS_*): the candidate is tokenized (its Document, a cand_cls, holds
 * its Tokens); each reference is only looked up in the candidate's vocabulary (probe_text: no
 * vocabulary, Tokens or join of its own), and its Document (a ref_cls) tokenizes it when
 * someone reads it. None when a side has more than max_side tokens or sentences (its cost must
 * be estimated first); NotImplemented when a method reads the reference's own terms (MATLAB's
 * skip-bigrams with a start token) or a text is one the tokenizers do not take (text_of).
 * With cand_cls None no Document is made: (None, None, records). `combine` (optional: 0, 1 best
 * F, 2 best recall; not read with a score_fn): several references' records combined here, as
 * pair_records says. */
static PyObject *py_score_texts(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    int word_rule;
    isize max_side;
    ScoreRule rule;
    isize combine = COMBINE_NONE;
    StemMapObject *stems = NULL; /* word_rule given as (rule, StemMap): the words stemmed through it */
    PyObject *rule_arg = args[2];
    if (nargs >= 3 && PyTuple_Check(rule_arg)) {
        if (PyTuple_Size(rule_arg) != 2 || !(stems = stem_map_arg(PyTuple_GetItem(rule_arg, 1)))) return NULL;
        rule_arg = PyTuple_GetItem(rule_arg, 0);
    }
    if (check_nargs("score_texts", nargs, 12, 13) < 0 || as_rule(rule_arg, &word_rule) < 0 ||
        as_isize(args[11], &max_side) < 0 || rule_of(args[8], args[9], args[10], &rule) < 0 ||
        (nargs > 12 && as_isize(args[12], &combine) < 0))
        return NULL;
    if (combine < COMBINE_NONE || combine > COMBINE_BEST_RECALL)
        return PyErr_Format(PyExc_ValueError, "score_texts: no way of combining references %zd", (Py_ssize_t)combine);
    PyObject *refs = args[7];
    if (!PyTuple_Check(refs) || PyTuple_Size(refs) == 0)
        return PyErr_Format(PyExc_ValueError, "score_texts needs a tuple of at least one reference");
    Py_ssize_t nrefs = PyTuple_Size(refs);
    TermRef cand, *texts = xmalloc((size_t)(nrefs + 1) * sizeof(TermRef));
    if (!texts) return PyErr_NoMemory();
    int taken = text_of(args[6], word_rule, &cand);
    for (Py_ssize_t i = 0; i < nrefs && taken; i++) taken = text_of(PyTuple_GetItem(refs, i), word_rule, &texts[i]);
    PlanList plans;
    int owned = 0, failed = 0;
    if (!taken) {
        free(texts);
        Py_RETURN_NOTIMPLEMENTED;
    }
    if (plans_get(args[5], &plans, &owned) < 0) {
        free(texts);
        return NULL;
    }
    PyObject *out = NULL, *records = NULL, *cand_tokens = NULL, *ref_tokens = NULL, *docs[2] = {NULL, NULL};
    Scored *scored = NULL;
    KWork *w = NULL;
    for (Py_ssize_t k = 0; k < plans.n; k++)
        if (plans.k[k].code == K_SKIP && plans.k[k].b == SU_START) {
            out = Py_NewRef(Py_NotImplemented);
            goto done;
        }
    StemCall call = {stems, 1};
    int stem_rc = 0;
    /* No Document kept (cand_cls None): each text's words before stemming (without stems, the
     * candidate's Tok itself: no Tokens object made) go into the working memory's Tok, its
     * buffers reused from text to text and call to call. */
    int in_work = args[0] == Py_None, cand_in_work = in_work && !stems;
    if (in_work && !(w = kwork_acquire())) {
        PyErr_NoMemory();
        goto done;
    }
    /* read no further than max_side tokens: a longer text is estimated first, then read again
     * (8 million distinct words were read whole here before the ordinary path read them) */
    int over = 0;
    isize stopped_at;
    Tok *c = in_work ? (w->spare = tokenize_text_into_capped(w->spare, cand.data, cand.len, word_rule, max_side, &over))
                     : tokenize_text_capped(cand.data, cand.len, word_rule, max_side, ISIZE_MAX, &over, &stopped_at);
    if (over) {
        out = Py_NewRef(Py_None);
        goto done;
    }
    if (c && stems) {
        Tok *raw = c;
        c = tok_stemmed(raw, stems->table, NULL, stem_miss, &call, &stem_rc);
        if (!in_work) tok_free(raw);
    }
    if (!c && stem_rc < -1) {
        if (stem_rc == STEM_NOT_STR) out = Py_NewRef(Py_NotImplemented); /* the Python pipeline decides */
        goto done;
    }
    if (cand_in_work) {
        if (!c) {
            PyErr_NoMemory();
            goto done;
        }
    } else if (!(cand_tokens = tokens_wrap(c, NULL))) {
        goto done;
    }
    if (c->n > max_side || c->nsent > max_side) {
        out = Py_NewRef(Py_None);
        goto done;
    }
    scored = xmalloc((size_t)(plans.n * nrefs) * sizeof(Scored));
    if (stems && scored) { /* each reference tokenized and stemmed, then joined to the candidate */
        ref_tokens = PyTuple_New(nrefs);
        for (Py_ssize_t i = 0; ref_tokens && i < nrefs; i++) {
            Tok *raw = in_work ? (w->spare = tokenize_text_into_capped(w->spare, texts[i].data, texts[i].len, word_rule,
                                                                       max_side, &over))
                               : tokenize_text_capped(texts[i].data, texts[i].len, word_rule, max_side, ISIZE_MAX, &over,
                                                      &stopped_at);
            if (over) {
                out = Py_NewRef(Py_None);
                goto done;
            }
            Tok *r = raw ? tok_stemmed(raw, stems->table, NULL, stem_miss, &call, &stem_rc) : NULL;
            if (!in_work) tok_free(raw);
            if (!r && stem_rc < -1) {
                if (stem_rc == STEM_NOT_STR) out = Py_NewRef(Py_NotImplemented);
                goto done;
            }
            PyObject *t = tokens_wrap(r, NULL);
            if (!t || PyTuple_SetItem(ref_tokens, i, t) < 0) goto done;
            if (r->n > max_side || r->nsent > max_side) {
                out = Py_NewRef(Py_None);
                goto done;
            }
        }
        if (!ref_tokens) goto done;
    }
    if (!w && scored) w = kwork_acquire();
    failed = !scored || !w || kwork_ready(w, c) < 0;
    for (Py_ssize_t i = 0; i < nrefs && !failed && stems; i++) {
        const Tok *r = ((TokensObject *)PyTuple_GetItem(ref_tokens, i))->tok;
        failed = kwork_join(w, c, r) < 0 ||
                 score_reference(c, r, w->rows, w->ref_count, &plans, w, rule.empty_nan, scored, nrefs, i) < 0;
    }
    for (Py_ssize_t i = 0; i < nrefs && !failed && !stems; i++) {
        Probe *p = &w->probe;
        failed = probe_text(p, c, texts[i].data, texts[i].len, word_rule) < 0;
        if (failed) break;
        if (p->n > max_side || p->nsent > max_side) {
            out = Py_NewRef(Py_None);
            goto done;
        }
        Tok view = probe_view(p);
        failed = score_reference(c, &view, p->rows, p->counts + 1, &plans, w, rule.empty_nan, scored, nrefs, i) < 0;
    }
    kwork_release(w);
    w = NULL;
    if (failed) {
        PyErr_NoMemory();
        goto done;
    }
    records = pair_records(&plans, scored, nrefs, &rule, combine_in_c(&rule, &plans, combine));
    if (records && args[0] == Py_None) { /* the records alone (a caller that keeps no Documents) */
        out = PyTuple_Pack(3, Py_None, Py_None, records);
        goto done;
    }
    docs[0] = records ? native_document(args[0], args[6], args[3], args[4], cand_tokens) : NULL;
    docs[1] = docs[0] ? PyTuple_New(nrefs) : NULL;
    for (Py_ssize_t i = 0; docs[1] && i < nrefs; i++) { /* a stemmed reference's Document holds its Tokens */
        PyObject *d = native_document(stems ? args[0] : args[1], PyTuple_GetItem(refs, i), args[3], args[4],
                                      stems ? PyTuple_GetItem(ref_tokens, i) : NULL);
        tuple_put(&docs[1], i, d);
    }
    if (docs[1]) out = PyTuple_Pack(3, docs[0], docs[1], records);
done:
    kwork_release(w);
    Py_XDECREF(ref_tokens);
    Py_XDECREF(records);
    Py_XDECREF(docs[0]);
    Py_XDECREF(docs[1]);
    Py_XDECREF(cand_tokens);
    FREE_ALL(scored, texts);
    if (owned) planlist_free(&plans);
    return out;
}

/* stats(plan, cand, ref) -> Stats: one method's statistics on one pair (plan: kernel, a, b, w). */
static PyObject *py_stats(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    KPlan k;
    if (check_nargs("stats", nargs, 3, 3) < 0 ||
        !PyArg_ParseTuple(args[0], "iLLd", &k.code, &k.a, &k.b, &k.w))
        return NULL;
    const char *problem = kplan_problem(&k);
    if (problem) return PyErr_Format(PyExc_ValueError, "bad kernel plan: %s", problem);
    Tok *c = tok_arg(args[1], "the candidate"), *r = c ? tok_arg(args[2], "the reference") : NULL;
    if (!r) return NULL;
    KWork *w = kwork_acquire();
    KStats s;
    int failed = !w || kwork_ready(w, c) < 0 || kwork_join(w, c, r) < 0 ||
                 pair_stats(c, r, w->rows, w->ref_count, &k, w, &s) < 0;
    kwork_release(w);
    return failed ? PyErr_NoMemory() : stats_record(&s);
}

/* ------------------------------------------------------------------------------------------
 * evidence (rouge_core.families.methods' native_evidence): the kernels' arrays as the pure path's
 * records and tuples
 * ---------------------------------------------------------------------------------------- */

/* An evidence call on a pair (its first two arguments): the Tokens, the reference joined to the
 * candidate in w, and once the kernel has run, the ints cache for the records. */
typedef struct {
    Tok *c, *r;
    KWork *w;
    Ints ints;
} EvidenceCall;

/* An evidence kernel run on the call's pair with the call's parameters, filling `found` (its
 * evidence struct): 0, or -1 on no memory. */
typedef int (*EvidenceKernel)(const EvidenceCall *e, const isize *params, void *found);

/* What every evidence call does before it builds its records: its arguments checked (`name`,
 * min..max of them, the first two Tokens), the reference joined to the candidate, `kernel` run
 * on them, the work given back. 0 with the ints ready, or -1 with the error set (evidence_end
 * then gives NULL). */
static int evidence_run(const char *name, PyObject *const *args, Py_ssize_t nargs, Py_ssize_t min, Py_ssize_t max,
                        EvidenceKernel kernel, const isize *params, void *found, EvidenceCall *e) {
    memset(e, 0, sizeof(*e));
    if (check_nargs(name, nargs, min, max) < 0 || !(e->c = tok_arg(args[0], "the candidate")) ||
        !(e->r = tok_arg(args[1], "the reference")))
        return -1;
    e->w = kwork_acquire();
    int rc = !e->w || kwork_join(e->w, e->c, e->r) < 0 ? -1 : kernel(e, params, found);
    kwork_release(e->w);
    if (rc < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return ints_init(&e->ints, (e->c->n > e->r->n ? e->c->n : e->r->n) + 1);
}

static int ngram_kernel(const EvidenceCall *e, const isize *params, void *found) {
    return ngram_evidence(e->c, e->w->rows, e->r->n, e->w->ref_count, params[0], found);
}

static int skip_kernel(const EvidenceCall *e, const isize *params, void *found) {
    return skip_evidence(e->c, e->r, e->w->rows, params[0], (int)params[1], found);
}

static int lcs_kernel(const EvidenceCall *e, const isize *params, void *found) {
    return lcs_alignment(e->c, e->w->rows, e->r->n, found);
}

static int union_kernel(const EvidenceCall *e, const isize *params, void *found) {
    return union_evidence(e->c, e->r, e->w->rows, e->w->ref_count, found);
}

/* The call's result, once its ints are no longer needed. */
static PyObject *evidence_end(EvidenceCall *e, PyObject *out) {
    ints_free(&e->ints);
    return untracked(out);
}

/* ngram_evidence(cand, ref, n) -> the NgramMatch records of rouge_core.families.ngram.ngram_evidence */
static PyObject *py_ngram_evidence(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    EvidenceCall ev;
    isize n = 1;
    if (nargs >= 3 && as_isize(args[2], &n) < 0) return NULL;
    if (n < 1) return PyErr_Format(PyExc_ValueError, "n must be at least 1");
    NgramEvidence e = {0};
    PyObject *out = NULL;
    if (evidence_run("ngram_evidence", args, nargs, 3, 4, ngram_kernel, &n, &e, &ev) == 0)
        out = PyTuple_New(e.match.n / 3);
    const i32 *starts = e.starts.v;
    for (isize m = 0; out && m < e.match.n / 3; m++) {
        const i32 *match = e.match.v + 3 * m;
        i32 cc = match[1], rc = match[2];
        PyObject *v[NGRAM_MATCH_FIELDS];
        v[NGRAM_MATCH_NGRAM] = untracked(gram_tuple((TokensObject *)args[0], ev.c->ids + match[0], n));
        v[NGRAM_MATCH_CAND_COUNT] = int_of(&ev.ints, cc);
        v[NGRAM_MATCH_REF_COUNT] = int_of(&ev.ints, rc);
        v[NGRAM_MATCH_MATCHED] = int_of(&ev.ints, cc < rc ? cc : rc);
        v[NGRAM_MATCH_CAND_STARTS] = int_tuple(&ev.ints, starts, cc);
        v[NGRAM_MATCH_REF_STARTS] = int_tuple(&ev.ints, starts + cc, rc);
        starts += cc + rc;
        PyObject *row = record(REC_NGRAM_MATCH, NULL, v);
        tuple_put(&out, m, row);
    }
    ngram_evidence_free(&e);
    return evidence_end(&ev, out);
}

/* The str of a joint id of skip_evidence (a borrowed reference). */
static PyObject *joint_str(PyObject *const *args, i32 id, const SkipEvidence *e) {
    isize nvc = ((TokensObject *)args[0])->tok->nv;
    if (id == e->start_fresh) return args[4];
    if (id < nvc) return term_str((TokensObject *)args[0], id);
    return term_str((TokensObject *)args[1], (i32)(id - nvc));
}

/* skip_evidence(cand, ref, distance, form, start) -> the SkipBigramRow records of
 * rouge_core.families.skipgram.skip_stats (start: the start token str) */
static PyObject *py_skip_evidence(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    EvidenceCall ev;
    isize params[2] = {0, SU_NONE}; /* distance, form */
    if (nargs == 5 && (as_isize(args[2], &params[0]) < 0 || as_isize(args[3], &params[1]) < 0)) return NULL;
    if (params[1] < SU_NONE || params[1] > SU_START) return PyErr_Format(PyExc_ValueError, "unknown unigram form");
    SkipEvidence e = {0};
    PyObject *out = NULL;
    if (evidence_run("skip_evidence", args, nargs, 5, 5, skip_kernel, params, &e, &ev) == 0)
        out = PyTuple_New(e.rows.n / 4);
    for (isize k = 0; out && k < e.rows.n / 4; k++) {
        const i32 *row = e.rows.v + 4 * k;
        PyObject *a = joint_str(args, row[0], &e), *b = row[1] >= 0 ? joint_str(args, row[1], &e) : NULL;
        PyObject *v[SKIP_ROW_FIELDS];
        v[SKIP_ROW_GRAM] = !a || (row[1] >= 0 && !b) ? NULL : untracked(b ? PyTuple_Pack(2, a, b) : PyTuple_Pack(1, a));
        v[SKIP_ROW_CAND_COUNT] = int_of(&ev.ints, row[2]);
        v[SKIP_ROW_REF_COUNT] = int_of(&ev.ints, row[3]);
        v[SKIP_ROW_MATCHED] = int_of(&ev.ints, row[2] < row[3] ? row[2] : row[3]);
        PyObject *made = record(REC_SKIP_ROW, NULL, v);
        tuple_put(&out, k, made);
    }
    free(e.rows.v);
    return evidence_end(&ev, out);
}

/* lcs_evidence(cand, ref) -> (pairs, lcs): rouge_core.families.lcs.sentence_lcs's evidence, the aligned
 * (cand index, ref index) pairs and the candidate's terms along them */
static PyObject *py_lcs_evidence(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    EvidenceCall ev;
    IVec pairs = {0};
    PyObject *out = NULL;
    if (evidence_run("lcs_evidence", args, nargs, 2, 4, lcs_kernel, NULL, &pairs, &ev) == 0) {
        isize n = pairs.n / 2;
        PyObject *lcs = PyTuple_New(n);
        for (isize k = 0; lcs && k < n; k++) {
            PyObject *term = term_str((TokensObject *)args[0], ev.c->ids[pairs.v[2 * k]]);
            tuple_put(&lcs, k, Py_XNewRef(term));
        }
        out = tuple_of((PyObject *[]){int_pairs(&ev.ints, pairs.v, n, 0), untracked(lcs)}, 2);
    }
    free(pairs.v);
    return evidence_end(&ev, out);
}

/* union_evidence(cand, ref) -> per reference sentence (alignments, union, counted):
 * rouge_core.families.lcs.union_lcs's evidence (lcs.h's UnionEvidence): alignments as ((cand
 * sentence, ((cand index, ref index), ...)), ...) by candidate sentence */
static PyObject *py_union_evidence(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    EvidenceCall ev;
    UnionEvidence e = {0};
    PyObject *out = NULL;
    if (evidence_run("union_evidence", args, nargs, 2, 4, union_kernel, NULL, &e, &ev) == 0)
        out = PyTuple_New(ev.r->nsent);
    Ints *ints = &ev.ints;
    for (isize s = 0; out && s < ev.r->nsent; s++) {
        isize g0 = e.sent_groups[s], g1 = e.sent_groups[s + 1];
        PyObject *alignments = PyTuple_New((g1 - g0) / 3);
        for (isize g = g0; alignments && g < g1; g += 3) {
            const i32 *group = e.groups.v + g;
            PyObject *item[2] = {int_of(ints, group[0]), int_pairs(ints, e.pairs.v + 2 * group[1], group[2], 0)};
            PyObject *pair = tuple_of(item, 2);
            tuple_put(&alignments, (g - g0) / 3, pair);
        }
        PyObject *items[3] = {untracked(alignments),
                              int_tuple(ints, e.unions.v + e.sent_unions[s], e.sent_unions[s + 1] - e.sent_unions[s]),
                              int_tuple(ints, e.counted.v + e.sent_counted[s], e.sent_counted[s + 1] - e.sent_counted[s])};
        PyObject *sentence = tuple_of(items, 3);
        tuple_put(&out, s, sentence);
    }
    union_evidence_free(&e);
    return evidence_end(&ev, out);
}

/* A Tok of a sequence of str terms in no sentences (the terms tuple, which keeps their data,
 * is left in *terms). */
static Tok *tok_of_seq(PyObject *seq, PyObject **terms) {
    *terms = PySequence_Tuple(seq);
    return *terms ? tok_of_tuple(*terms, NULL, 0) : NULL;
}

/* wlcs_alignment(ref, cand, w) -> (value, pairs): rouge_core.families.wlcs.wlcs_alignment */
static PyObject *py_wlcs_alignment(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    double weight;
    if (check_nargs("wlcs_alignment", nargs, 3, 3) < 0 || as_double(args[2], &weight) < 0) return NULL;
    if (!(weight >= 1.0 && weight <= 5.0)) return PyErr_Format(PyExc_ValueError, "w must be in [1, 5]");
    PyObject *terms = NULL, *out = NULL;
    Tok *c = tok_of_seq(args[1], &terms);
    isize nr;
    i32 *rows = c ? rows_of_seq(c, args[0], &nr) : NULL;
    IVec pairs = {0};
    double value = 0.0;
    Ints ints = {0};
    if (rows) {
        int rc;
        Py_BEGIN_ALLOW_THREADS
        rc = wlcs_alignment(c, rows, nr, weight, &value, &pairs);
        Py_END_ALLOW_THREADS
        if (rc < 0)
            PyErr_NoMemory();
        else if (ints_init(&ints, (c->n > nr ? c->n : nr) + 1) == 0) {
            PyObject *items[2] = {PyFloat_FromDouble(value), int_pairs(&ints, pairs.v, pairs.n / 2, 1)};
            out = tuple_of(items, 2);
        }
    }
    ints_free(&ints);
    FREE_ALL(pairs.v, rows);
    tok_free(c);
    Py_XDECREF(terms);
    return out;
}

/* first_partners(ref_sentences, cand_sentences, cand_starts, w) -> per reference sentence a
 * dict {position in the sentence: candidate position}: rouge_core.families.wlcs._first_partners */
static PyObject *py_first_partners(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    double weight;
    if (check_nargs("first_partners", nargs, 4, 4) < 0 || as_double(args[3], &weight) < 0) return NULL;
    if (!(weight >= 1.0 && weight <= 5.0)) return PyErr_Format(PyExc_ValueError, "w must be in [1, 5]");
    PyObject *rs = PySequence_Tuple(args[0]), *cs = PySequence_Tuple(args[1]), *st = PySequence_Tuple(args[2]);
    PyObject *cand_terms = NULL, *out = NULL;
    Tok *c = NULL, r = {0};
    IVec rows = {0}, cb = {0};
    i32 *cstart = NULL, *partner = NULL;
    if (!rs || !cs || !st) goto done;
    Py_ssize_t ncs = PyTuple_Size(cs), nrs = PyTuple_Size(rs);
    if (PyTuple_Size(st) != ncs) {
        PyErr_SetString(PyExc_ValueError, "one start per candidate sentence");
        goto done;
    }
    /* the candidate: its sentences one after the other */
    cand_terms = PyList_New(0);
    cstart = xmalloc((size_t)(ncs + 1) * sizeof(i32));
    if (!cand_terms || !cstart || ivec_reserve(&cb, 2 * ncs) < 0) goto nomem;
    for (Py_ssize_t t = 0; t < ncs; t++) {
        isize a = PyList_Size(cand_terms), s0;
        PyObject *more = PySequence_InPlaceConcat(cand_terms, PyTuple_GetItem(cs, t));
        if (!more || as_isize(PyTuple_GetItem(st, t), &s0) < 0) {
            Py_XDECREF(more);
            goto done;
        }
        Py_DECREF(more);
        cb.v[cb.n++] = (i32)a;
        cb.v[cb.n++] = (i32)PyList_Size(cand_terms);
        cstart[t] = (i32)s0;
    }
    replace_ref(&cand_terms, PyList_AsTuple(cand_terms));
    if (!cand_terms || !(c = tok_of_tuple(cand_terms, cb.v, ncs))) goto done;
    /* the reference: as candidate ids, sentence after sentence */
    r.bounds = xmalloc((size_t)(2 * nrs + 1) * sizeof(i32));
    if (!r.bounds) goto nomem;
    for (Py_ssize_t s = 0; s < nrs; s++) {
        isize n;
        i32 *part = rows_of_seq(c, PyTuple_GetItem(rs, s), &n);
        if (!part || ivec_reserve(&rows, n) < 0) {
            if (part) PyErr_NoMemory();
            free(part);
            goto done;
        }
        r.bounds[2 * s] = (i32)rows.n;
        for (isize i = 0; i < n; i++) rows.v[rows.n++] = part[i];
        r.bounds[2 * s + 1] = (i32)rows.n;
        free(part);
    }
    r.nsent = nrs;
    r.n = rows.n;
    partner = xmalloc((size_t)(r.n + 1) * sizeof(i32));
    int rc = -1;
    if (partner) {
        Py_BEGIN_ALLOW_THREADS
        rc = wlcs_first_partners(c, &r, rows.v, cstart, weight, partner);
        Py_END_ALLOW_THREADS
    }
    if (rc < 0) goto nomem;
    out = PyList_New(nrs);
    for (Py_ssize_t s = 0; out && s < nrs; s++) {
        PyObject *d = PyDict_New();
        if (!d || PyList_SetItem(out, s, d) < 0) {
            Py_CLEAR(out);
            break;
        }
        for (isize i = r.bounds[2 * s]; i < r.bounds[2 * s + 1]; i++) {
            if (partner[i] < 0) continue;
            PyObject *key = PyLong_FromSsize_t(i - r.bounds[2 * s]), *val = PyLong_FromLong(partner[i]);
            int ok = key && val && PyDict_SetItem(d, key, val) == 0;
            Py_XDECREF(key);
            Py_XDECREF(val);
            if (!ok) {
                Py_CLEAR(out);
                break;
            }
        }
    }
    goto done;
nomem:
    PyErr_NoMemory();
done:
    Py_XDECREF(rs);
    Py_XDECREF(cs);
    Py_XDECREF(st);
    Py_XDECREF(cand_terms);
    tok_free(c);
    FREE_ALL(r.bounds, rows.v, cb.v, cstart, partner);
    return out;
}

/* ------------------------------------------------------------------------------------------
 * batches: BatchJob (kernels/batch.c), run by any number of threads with the GIL released
 * ---------------------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    BatchJob job;
    PyObject *plans_obj; /* the plans' owner */
    PlanList plans;
    int plans_owned;
    PyObject *cands;     /* the candidates (a tuple) and every reference text read (one tuple), held */
    PyObject *texts;     /* until the job goes */
    BItem *items;
    isize *first, *count;
    char *skip;
    PyObject *values, *offsets, *unscored; /* bytes written by the runs, bytes, list */
    PyObject *stem_map;                    /* or NULL */
    StemCall stem_call;
} BatchJobObject;

static void BatchJob_dealloc(BatchJobObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    Py_XDECREF(self->cands);
    Py_XDECREF(self->texts);
    Py_XDECREF(self->plans_obj);
    if (self->plans_owned) planlist_free(&self->plans);
    FREE_ALL(self->items, self->first, self->count, self->skip, self->job.done);
    Py_XDECREF(self->values);
    Py_XDECREF(self->offsets);
    Py_XDECREF(self->unscored);
    Py_XDECREF(self->stem_map);
    free(self->job.left);
    PyObject_Free(self);
    Py_DECREF(tp);
}

/* The item a text of the batch becomes: a Tokens object's document, or (with a word rule, not
 * -1) a str the tokenizers take (text_of) of at most max_bytes bytes of UTF-8; 0 for anything
 * else. */
static int batch_item(PyObject *o, int word_rule, isize max_bytes, BItem *it) {
    TermRef text;
    if (is_tokens(o)) {
        it->tok = ((TokensObject *)o)->tok;
        return 1;
    }
    if (word_rule < 0 || !PyUnicode_CheckExact(o) || !text_of(o, word_rule, &text) || text.len > max_bytes) return 0;
    it->text = text.data;
    it->len = text.len;
    return 1;
}

/* reference_counts(references) -> (counts, most): per pair of a batch, how many references its
 * list (or tuple) holds (0 for another value), and the largest count; in one pass, since the
 * calling thread reads them before any other thread can start (score_batch). */
static PyObject *py_reference_counts(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    if (check_nargs("reference_counts", nargs, 1, 1) < 0) return NULL;
    if (!PyList_Check(args[0])) return PyErr_Format(PyExc_TypeError, "reference_counts takes a list");
    Py_ssize_t n = PyList_Size(args[0]), most = 0;
    PyObject *counts = PyList_New(n);
    for (Py_ssize_t p = 0; counts && p < n; p++) {
        PyObject *rl = PyList_GetItem(args[0], p);
        Py_ssize_t k = PyList_Check(rl) || PyTuple_Check(rl) ? (PyList_Check(rl) ? PyList_Size(rl) : PyTuple_Size(rl)) : 0;
        PyObject *count = PyLong_FromSsize_t(k);
        if (!count) {
            Py_CLEAR(counts);
            break;
        }
        PyList_SetItem(counts, p, count);
        if (k > most) most = k;
    }
    if (!counts) return NULL;
    PyObject *out = Py_BuildValue("(Nn)", counts, most);
    return out;
}

/* A reference list's length and items (a list or a tuple; items borrowed). */
static isize batch_list_size(PyObject *rl) { return PyList_Check(rl) ? PyList_Size(rl) : PyTuple_Size(rl); }
static PyObject *batch_list_item(PyObject *rl, isize i) { return PyList_Check(rl) ? PyList_GetItem(rl, i) : PyTuple_GetItem(rl, i); }

/* batch_job(plans, candidates, references, word_rule, max_bytes, max_refs, alpha, empty_nan,
 *           block[, stem_map]) -> BatchJob
 *
 * candidates: a list of str or Tokens; references: a list of lists (or tuples) of them. A str
 * is tokenized by the run that scores it (under word_rule, WORDS_*; -1: str are not taken); a
 * pair with another kind of text, a text of more than max_bytes bytes of UTF-8 (its cost must
 * be checked first), no reference or
 * more than max_refs references is left out and listed in `unscored`, for the caller to score
 * its own way. Once every block is done, result() gives (values, offsets, unscored): values,
 * doubles, per pair, per plan, per reference, the BATCH_VALUES of kernel_spec; offsets: int64,
 * where each pair's values start (-1 for a left-out pair). alpha is not read (the F-measure
 * is made with the records, batch_records). With a stem_map (a StemMap), the words of the str
 * texts are stemmed through it as tokens_stemmed does (a word it lacks is stemmed by its
 * function, the run taking the GIL for that word alone); a pair whose stem function fails is
 * left out too. */
static PyObject *py_batch_job(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    int word_rule = -1, empty_nan;
    isize max_bytes, max_refs, block;
    if (check_nargs("batch_job", nargs, 9, 10) < 0 || (nargs > 9 && args[9] != Py_None && !stem_map_arg(args[9])) || (args[3] != Py_None && as_rule(args[3], &word_rule) < 0) ||
        as_isize(args[4], &max_bytes) < 0 || as_isize(args[5], &max_refs) < 0 || as_flag(args[7], &empty_nan) < 0 ||
        as_isize(args[8], &block) < 0)
        return NULL;
    if (!PyList_Check(args[1]) || !PyList_Check(args[2]))
        return PyErr_Format(PyExc_TypeError, "candidates and references must be lists");
    PyObject *cands = PyList_AsTuple(args[1]), *refs = cands ? PyList_AsTuple(args[2]) : NULL;
    BatchJobObject *self = refs ? PyObject_New(BatchJobObject, BatchJobType) : NULL;
    if (!self) {
        Py_XDECREF(cands);
        Py_XDECREF(refs);
        return NULL;
    }
    memset((char *)self + sizeof(PyObject), 0, sizeof(*self) - sizeof(PyObject));
    self->cands = cands; /* held until the job goes */
    BatchJob *job = &self->job;
    isize n = PyTuple_Size(cands);
    if (PyTuple_Size(refs) != n || block < 1) {
        PyErr_SetString(PyExc_ValueError, block < 1 ? "block must be at least 1" : "one reference list per candidate");
        goto fail;
    }
    if (plans_get(args[0], &self->plans, &self->plans_owned) < 0) goto fail;
    self->plans_obj = Py_NewRef(args[0]);
    /* per pair: its texts, the reference lists read once (a list changed later changes
     * nothing): the candidates held in their tuple, every reference text in one tuple rather
     * than a tuple per pair (made and freed on this thread while the others wait: issue 34) */
    self->unscored = PyList_New(0);
    self->first = xmalloc((size_t)(n + 1) * sizeof(isize));
    self->count = xmalloc((size_t)(n + 1) * sizeof(isize));
    self->skip = xcalloc((size_t)n + 1, 1);
    self->offsets = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)((n + 1) * sizeof(long long)));
    if (!self->unscored || !self->first || !self->count || !self->skip || !self->offsets) goto nomem;
    isize total_items = 0, total_refs = 0;
    for (isize p = 0; p < n; p++) {
        PyObject *rl = PyTuple_GetItem(refs, p);
        int listed = PyList_Check(rl) || PyTuple_Check(rl);
        isize nr = listed ? batch_list_size(rl) : 0;
        self->skip[p] = !listed || nr == 0 || nr > max_refs;
        self->count[p] = nr;
        total_items += 1 + nr;
        total_refs += nr;
    }
    /* Making this tuple may run the collector, and with it a finalizer that changes a list
     * counted above: a list whose length changed is left to the caller (read anew there). */
    PyObject *held = PyTuple_New(total_refs);
    self->texts = held;
    self->items = xcalloc((size_t)total_items + 1, sizeof(BItem));
    if (!held || !self->items) goto nomem;
    long long *offsets = (long long *)PyBytes_AsString(self->offsets);
    long long value_at = 0;
    for (isize p = 0, at = 0, ref_at = 0; p < n; at += 1 + self->count[p], ref_at += self->count[p], p++) {
        self->first[p] = at;
        PyObject *rl = PyTuple_GetItem(refs, p), *cand = PyTuple_GetItem(cands, p);
        int same = (PyList_Check(rl) || PyTuple_Check(rl)) && batch_list_size(rl) == self->count[p];
        for (isize i = 0; i < self->count[p]; i++)
            PyTuple_SetItem(held, ref_at + i, Py_NewRef(same ? batch_list_item(rl, i) : Py_None));
        self->skip[p] |= !same || !batch_item(cand, word_rule, max_bytes, &self->items[at]);
        for (isize i = 0; i < self->count[p] && !self->skip[p]; i++)
            self->skip[p] |= !batch_item(PyTuple_GetItem(held, ref_at + i), word_rule, max_bytes,
                                         &self->items[at + 1 + i]);
        if (self->skip[p]) {
            PyObject *index = PyLong_FromSsize_t(p);
            int rc = index ? PyList_Append(self->unscored, index) : -1;
            Py_XDECREF(index);
            if (rc < 0) goto fail;
            offsets[p] = -1;
        } else {
            offsets[p] = value_at;
            value_at += (long long)self->plans.n * self->count[p] * BATCH_VALUES;
        }
    }
    offsets[n] = value_at;
    self->values = held ? PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(value_at * sizeof(double))) : NULL;
    job->done = xcalloc((size_t)(n + block - 1) / (size_t)block + 1, 1);
    if (!self->values || !job->done) goto nomem;
    job->plans = self->plans.k;
    job->np = self->plans.n;
    job->items = self->items;
    job->first = self->first;
    job->count = self->count;
    job->skip = self->skip;
    job->offsets = offsets;
    job->values = (double *)PyBytes_AsString(self->values);
    job->n = n;
    job->block = block;
    job->nblocks = (n + block - 1) / block;
    job->rule = word_rule;
    job->empty_nan = empty_nan;
    if (!(job->left = xcalloc((size_t)n + 1, 1))) goto nomem;
    if (nargs > 9 && args[9] != Py_None) {
        self->stem_map = Py_NewRef(args[9]);
        self->stem_call.map = (StemMapObject *)args[9];
        self->stem_call.keep_error = 0;
        job->stems = self->stem_call.map->table;
        job->miss = stem_miss;
        job->miss_ctx = &self->stem_call;
    }
    Py_DECREF(refs);
    return (PyObject *)self;
nomem:
    if (!PyErr_Occurred()) PyErr_NoMemory();
fail:
    Py_DECREF(refs);
    Py_DECREF(self); /* and the candidates with it */
    return NULL;
}

/* job.run(blocks=-1) -> True while blocks are left to take: scores blocks (at most `blocks`;
 * -1: until none is left) with the GIL released. Any number of threads may run one job. */
static PyObject *BatchJob_run(BatchJobObject *self, PyObject *const *args, Py_ssize_t nargs) {
    isize limit = -1;
    int more = 0, rc;
    if (check_nargs("run", nargs, 0, 1) < 0 || (nargs && as_isize(args[0], &limit) < 0)) return NULL;
    Py_BEGIN_ALLOW_THREADS
    rc = batch_run(&self->job, limit, &more);
    Py_END_ALLOW_THREADS
    if (rc < 0) return PyErr_NoMemory();
    return PyBool_FromLong(more);
}

/* job.done() -> how many pairs from the first are scored (every block up to there is done). */
static PyObject *BatchJob_done(BatchJobObject *self, PyObject *unused) { return PyLong_FromSsize_t(batch_done(&self->job)); }

/* job.cancel(): the runs stop after the blocks they are scoring (the caller gave up: an error,
 * an interrupt, a page that reruns), so no thread goes on with a batch nobody waits for. */
static PyObject *BatchJob_cancel(BatchJobObject *self, PyObject *unused) {
    batch_cancel(&self->job);
    Py_RETURN_NONE;
}

/* job.result() -> (values, offsets, unscored), once every block is done and no run is under way. */
static PyObject *BatchJob_result(BatchJobObject *self, PyObject *unused) {
    if (!batch_finished(&self->job)) {
        PyErr_SetString(PyExc_RuntimeError, batch_cancelled(&self->job)
                                                ? "the batch job was cancelled"
                                                : "the batch job is not finished: run() it until no block is left");
        return NULL;
    }
    /* the pairs a run left out (their stem function failed): no values */
    long long *offsets = (long long *)PyBytes_AsString(self->offsets);
    for (isize p = 0; p < self->job.n; p++) {
        if (!self->job.left[p]) continue;
        PyObject *index = PyLong_FromSsize_t(p);
        int rc = index ? PyList_Append(self->unscored, index) : -1;
        Py_XDECREF(index);
        if (rc < 0) return NULL;
        self->job.left[p] = 0;
        offsets[p] = -1;
    }
    return PyTuple_Pack(3, self->values, self->offsets, self->unscored);
}

/* job.counts() -> per pair, its reference count as the job read it (0 for a value that is no list
 * or tuple), as int64 bytes (one copy: read on the calling thread at the batch's end): the records
 * of its values are built by these (a list the caller changed while the job was made or after
 * cannot shift them). */
static PyObject *BatchJob_counts(BatchJobObject *self, PyObject *unused) {
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(self->job.n * (isize)sizeof(long long)));
    if (!out) return NULL;
    long long *counts = (long long *)PyBytes_AsString(out);
    for (isize p = 0; p < self->job.n; p++) counts[p] = (long long)self->count[p];
    return out;
}

static PyObject *BatchJob_get_blocks(BatchJobObject *self, void *closure) { return PyLong_FromSsize_t(self->job.nblocks); }

static PyMethodDef BatchJob_methods[] = {
    {"run", FASTCALL(BatchJob_run), "run(blocks=-1) -> True while blocks are left (GIL released)"},
    {"done", (PyCFunction)BatchJob_done, METH_NOARGS, "done() -> pairs scored in a row from the first"},
    {"cancel", (PyCFunction)BatchJob_cancel, METH_NOARGS, "cancel(): runs take no further block"},
    {"result", (PyCFunction)BatchJob_result, METH_NOARGS, "result() -> (values, offsets, unscored)"},
    {"counts", (PyCFunction)BatchJob_counts, METH_NOARGS, "counts() -> each pair's reference count as read (int64 bytes)"},
    END,
};
static PyGetSetDef BatchJob_getset[] = {GETTER("blocks", BatchJob_get_blocks, "blocks of pairs the runs take in turn"), END};
TYPE_SPEC(BatchJob, "A batch's pairs, scored by the threads that call run() (see batch_job).", {Py_tp_new, refuse_new},
          {Py_tp_methods, BatchJob_methods}, {Py_tp_getset, BatchJob_getset});

/* batch_records(plans_for, values, offsets, counts, alpha, empty_nan, score_fn): the result
 * records of a BatchJob's pairs, as score_pair returns them (None for a left-out pair).
 * counts: each pair's reference count; plans_for[count]: the plans of a pair with that many
 * references (the same kernels in the same order; their signatures name the count). */
static PyObject *py_batch_records(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    ScoreRule rule;
    if (check_nargs("batch_records", nargs, 7, 7) < 0 || rule_of(args[4], args[5], args[6], &rule) < 0) return NULL;
    PyObject *plans_for = args[0], *counts = args[3];
    if (!PyTuple_Check(plans_for) || !PyBytes_Check(args[1]) || !PyBytes_Check(args[2]) || !PyList_Check(counts))
        return PyErr_Format(PyExc_TypeError, "batch_records(tuple, bytes, bytes, list, ...)");
    const double *values = (const double *)PyBytes_AsString(args[1]);
    const long long *offsets = (const long long *)PyBytes_AsString(args[2]);
    Py_ssize_t n = PyList_Size(counts), nvalues = PyBytes_Size(args[1]) / (Py_ssize_t)sizeof(double);
    if (PyBytes_Size(args[2]) < (Py_ssize_t)((n + 1) * sizeof(long long)))
        return PyErr_Format(PyExc_ValueError, "offsets too short");
    PyObject *out = PyList_New(n);
    Scored *scored = NULL;
    isize cap = 0;
    int gc_was_enabled = PyGC_Disable(); /* many records and no cycles among them (as for evidence) */
    for (Py_ssize_t p = 0; out && p < n; p++) {
        isize nrefs;
        PyObject *item = NULL, *plans_obj;
        if (as_isize(PyList_GetItem(counts, p), &nrefs) < 0) {
            Py_CLEAR(out);
            break;
        }
        if (offsets[p] < 0) {
            item = Py_NewRef(Py_None);
        } else if (nrefs < 0 || nrefs >= PyTuple_Size(plans_for) ||
                   !PyObject_TypeCheck((plans_obj = PyTuple_GetItem(plans_for, nrefs)), PlansType)) {
            PyErr_SetString(PyExc_ValueError, "no plans for this reference count");
        } else {
            const PlanList *plans = &((PlansObject *)plans_obj)->p;
            isize need = plans->n * nrefs;
            if (offsets[p] + need * BATCH_VALUES > nvalues) {
                PyErr_SetString(PyExc_ValueError, "values too short");
            } else if (grow_buffer((void **)&scored, &cap, need + 1, sizeof(Scored))) {
                for (isize k = 0; k < need; k++) {
                    const double *v = values + offsets[p] + k * BATCH_VALUES;
                    batch_stats(&plans->k[k / nrefs], v, &scored[k].s);
                    scored[k].p = v[BV_PRECISION];
                    scored[k].r = v[BV_RECALL];
                }
                item = pair_records(plans, scored, nrefs, &rule, COMBINE_NONE);
            } else {
                PyErr_NoMemory();
            }
        }
        if (!item || PyList_SetItem(out, p, item) < 0) Py_CLEAR(out);
    }
    if (gc_was_enabled) PyGC_Enable();
    free(scored);
    return out;
}

/* ------------------------------------------------------------------------------------------
 * module
 * ---------------------------------------------------------------------------------------- */

/* ------------------------------------------------------------------------------------------
 * resampling: the paired significance tests' sums (kernels/resample.c)
 * ---------------------------------------------------------------------------------------- */

/* A bytes argument of `count` items of `size` bytes each (None: NULL, when optional). */
static int buffer_arg(PyObject *o, isize count, size_t size, int optional, const char *what, const void **out) {
    *out = NULL;
    if (o == Py_None && optional) return 0;
    if (!PyBytes_CheckExact(o)) {
        PyErr_Format(PyExc_TypeError, "resample_sums: %s must be bytes%s", what, optional ? " or None" : "");
        return -1;
    }
    if ((size_t)PyBytes_Size(o) != (size_t)count * size) {
        PyErr_Format(PyExc_ValueError, "resample_sums: %s holds %zd bytes, not %zd", what, PyBytes_Size(o),
                     (Py_ssize_t)((size_t)count * size));
        return -1;
    }
    *out = PyBytes_AsString(o);
    return 0;
}

/* resample_sums(values, size, n, rows, index, negate, centres, compensated) -> bytes: per row, the
 * float Python's sum() gives of its terms (kernels/resample.h). values: `size` doubles; index:
 * rows * n int32 positions into values (None: each row is values in order); n is the row length
 * (the index's per row, or size); negate: rows * n bytes (None: none negated); centres: rows
 * doubles (None: the terms themselves, else their squared distance to the row's centre). */
static PyObject *py_resample_sums(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    isize size, rows, n;
    int compensated;
    const void *values, *index, *negate, *centres;
    if (check_nargs("resample_sums", nargs, 8, 8) < 0 || as_isize(args[1], &size) < 0 || as_isize(args[2], &n) < 0 ||
        as_isize(args[3], &rows) < 0 || as_flag(args[7], &compensated) < 0)
        return NULL;
    if (size < 1 || n < 1 || rows < 0 || (args[4] == Py_None && n != size))
        return PyErr_Format(PyExc_ValueError, "resample_sums: bad sizes");
    if (buffer_arg(args[0], size, sizeof(double), 0, "values", &values) < 0 ||
        buffer_arg(args[4], rows * n, sizeof(i32), 1, "index", &index) < 0 ||
        buffer_arg(args[5], rows * n, 1, 1, "negate", &negate) < 0 ||
        buffer_arg(args[6], rows, sizeof(double), 1, "centres", &centres) < 0)
        return NULL;
    if (index)
        for (isize k = 0; k < rows * n; k++)
            if (((const i32 *)index)[k] < 0 || ((const i32 *)index)[k] >= size)
                return PyErr_Format(PyExc_ValueError, "resample_sums: an index is out of range");
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)((size_t)rows * sizeof(double)));
    if (!out) return NULL;
    double *sums = (double *)PyBytes_AsString(out);
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = resample_sums(values, n, rows, index, negate, centres, compensated ? SUM_COMPENSATED : SUM_PLAIN, sums);
    Py_END_ALLOW_THREADS
    if (rc < 0) {
        Py_DECREF(out);
        return PyErr_NoMemory();
    }
    return out;
}

/* The MTState held by a bytearray (the caller's random.Random state, advanced in place). */
static MTState *mt_state_arg(PyObject *o) {
    if (!PyByteArray_CheckExact(o) || PyByteArray_Size(o) != (Py_ssize_t)sizeof(MTState)) {
        PyErr_Format(PyExc_TypeError, "the generator state must be a bytearray of %zd bytes", (Py_ssize_t)sizeof(MTState));
        return NULL;
    }
    MTState *st = (MTState *)PyByteArray_AsString(o);
    if (st->pos > 624) {
        PyErr_SetString(PyExc_ValueError, "the generator state's position is out of range");
        return NULL;
    }
    return st;
}

/* random_draws(state, kind, n, count) -> bytes: `count` draws of random.Random from `state` (a
 * bytearray holding an MTState, advanced in place): kind 0, randrange(n) as int32 (0 < n <
 * 2**31); kind 1, random() >= 0.5 as bytes 0 or 1 (n not read). */
static PyObject *py_random_draws(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    isize kind, n, count;
    if (check_nargs("random_draws", nargs, 4, 4) < 0 || as_isize(args[1], &kind) < 0 || as_isize(args[2], &n) < 0 ||
        as_isize(args[3], &count) < 0)
        return NULL;
    MTState *st = mt_state_arg(args[0]);
    if (!st) return NULL;
    if (count < 0 || (kind == 0 && (n < 1 || n > 0x7fffffff)) || (kind != 0 && kind != 1))
        return PyErr_Format(PyExc_ValueError, "random_draws: bad kind, n or count");
    size_t size = kind == 0 ? sizeof(i32) : 1;
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)((size_t)count * size));
    if (!out) return NULL;
    char *buf = PyBytes_AsString(out);
    Py_BEGIN_ALLOW_THREADS
    if (kind == 0)
        mt_below(st, (uint32_t)n, (i32 *)buf, count);
    else
        mt_halves(st, (unsigned char *)buf, count);
    Py_END_ALLOW_THREADS
    return out;
}

/* A column's array address (an int: the array's memory, kept alive and checked for dtype and
 * length by rouge_core.kernels.native.bootstrap_sums, the only caller); NULL for 0. */
static int address_arg(PyObject *o, const void **out) {
    *out = PyLong_AsVoidPtr(o);
    return *out == NULL && PyErr_Occurred() ? -1 : 0;
}

/* bootstrap_sums(state, n, rows, columns, empty_nan, threads) -> (sums, counts): the corpus
 * bootstrap's per-resample sums (kernels/resample.h). state: a bytearray of 6 native uint64
 * (PCG64's state high and low words, increment high and low words, has_uint32, uinteger),
 * advanced in place; columns: per method (hits, cand, ref addresses, their three float64 flags,
 * their strides in items, P, R, F addresses or 0, the alpha of its F); sums: rows * methods * 6
 * doubles; counts: rows * methods * 3 int64. */
static PyObject *py_bootstrap_sums(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    isize n, rows, threads;
    int empty_nan;
    if (check_nargs("bootstrap_sums", nargs, 6, 6) < 0 || as_isize(args[1], &n) < 0 || as_isize(args[2], &rows) < 0 ||
        as_flag(args[4], &empty_nan) < 0 || as_isize(args[5], &threads) < 0)
        return NULL;
    if (!PyByteArray_CheckExact(args[0]) || PyByteArray_Size(args[0]) != 48)
        return PyErr_Format(PyExc_TypeError, "bootstrap_sums: the generator state must be a bytearray of 48 bytes");
    if (!PyTuple_Check(args[3]) || PyTuple_Size(args[3]) < 1 || PyTuple_Size(args[3]) > 4096)
        return PyErr_Format(PyExc_TypeError, "bootstrap_sums: columns must be a non-empty tuple");
    if (n < 1 || (uint64_t)n > 0xFFFFFFFFULL || rows < 0 || threads < 1)
        return PyErr_Format(PyExc_ValueError, "bootstrap_sums: bad sizes");
    const int methods = (int)PyTuple_Size(args[3]);
    BootColumn *columns = xmalloc((size_t)methods * sizeof(BootColumn));
    if (!columns) return PyErr_NoMemory();
    for (int m = 0; m < methods; m++) {
        PyObject *c = PyTuple_GetItem(args[3], m);
        if (!PyTuple_Check(c) || PyTuple_Size(c) != 13) {
            free(columns);
            return PyErr_Format(PyExc_TypeError, "bootstrap_sums: a column must be a tuple of 13 items");
        }
        if (as_double(PyTuple_GetItem(c, 12), &columns[m].alpha) < 0) {
            free(columns);
            return NULL;
        }
        int scored = 0;
        for (int j = 0; j < 3; j++) {
            const void *score;
            isize kind;
            if (address_arg(PyTuple_GetItem(c, j), &columns[m].sides[j]) < 0 ||
                as_isize(PyTuple_GetItem(c, 3 + j), &kind) < 0 ||
                as_isize(PyTuple_GetItem(c, 6 + j), &columns[m].stride[j]) < 0 ||
                address_arg(PyTuple_GetItem(c, 9 + j), &score) < 0) {
                free(columns);
                return NULL;
            }
            if (kind != SIDE_U32 && kind != SIDE_F64 && kind != SIDE_U16 && kind != SIDE_U8) {
                free(columns);
                return PyErr_Format(PyExc_ValueError,
                                    "bootstrap_sums: a count's type must be uint32, float64, uint16 or uint8");
            }
            columns[m].side_kind[j] = (int)kind;
            columns[m].scores[j] = score;
            scored += score != NULL;
            if (!columns[m].sides[j] || columns[m].stride[j] < 1) {
                free(columns);
                return PyErr_Format(PyExc_ValueError, "bootstrap_sums: a column's counts are missing");
            }
        }
        if (scored != 0 && scored != 3) {
            free(columns);
            return PyErr_Format(PyExc_ValueError, "bootstrap_sums: P, R and F are given all three or none");
        }
    }
    uint64_t words[6];
    memcpy(words, PyByteArray_AsString(args[0]), sizeof words);
    Pcg64State rng = {((unsigned __int128)words[0] << 64) | words[1], ((unsigned __int128)words[2] << 64) | words[3],
                      words[4] != 0, (uint32_t)words[5]};
    PyObject *sums = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)((size_t)rows * methods * BOOT_SUMS * sizeof(double)));
    PyObject *counts = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)((size_t)rows * methods * 3 * sizeof(int64_t)));
    if (!sums || !counts) {
        Py_XDECREF(sums);
        Py_XDECREF(counts);
        free(columns);
        return NULL;
    }
    int rc;
    double *sums_out = (double *)PyBytes_AsString(sums);
    int64_t *counts_out = (int64_t *)PyBytes_AsString(counts);
    Py_BEGIN_ALLOW_THREADS
    rc = bootstrap_sums(&rng, n, rows, columns, methods, empty_nan, threads > 1 ? 2 : 1,
                        sums_out, counts_out);
    Py_END_ALLOW_THREADS
    free(columns);
    if (rc < 0) {
        Py_DECREF(sums);
        Py_DECREF(counts);
        return PyErr_NoMemory();
    }
    words[0] = (uint64_t)(rng.state >> 64), words[1] = (uint64_t)rng.state;
    words[4] = (uint64_t)rng.has_uint32, words[5] = rng.uinteger;
    memcpy(PyByteArray_AsString(args[0]), words, sizeof words);
    return Py_BuildValue("(NN)", sums, counts);
}

/* ------------------------------------------------------------------------------------------
 * Jieba: jieba's default cut on a copy of its tables (kernels/jieba.c)
 * ---------------------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    JiebaModel *model; /* read only once made: any thread may cut with it */
} JiebaObject;

static void Jieba_dealloc(JiebaObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    jieba_free(self->model);
    PyObject_Free(self);
    Py_DECREF(tp);
}

TYPE_SPEC(Jieba, "A copy of jieba's dictionary and HMM (see jieba_model).", {Py_tp_new, refuse_new});

/* A str's code points in a malloc'd array (*n of them); NULL with an exception set. */
static uint32_t *code_points(PyObject *s, isize *n) {
    Py_ssize_t len = PyUnicode_GetLength(s);
    if (len < 0) return NULL;
    uint32_t *out = xmalloc((size_t)(len + 1) * sizeof(uint32_t));
    if (!out) {
        PyErr_NoMemory();
        return NULL;
    }
    if (!PyUnicode_AsUCS4(s, (Py_UCS4 *)out, len + 1, 1)) {
        free(out);
        return NULL;
    }
    *n = len;
    return out;
}

/* jieba_model(freq, logtotal, start, trans, emit) -> Jieba, or None when the tables hold what
 * the copy does not take (a key that is not a str, a frequency that is not an int in [0, 2**63));
 * freq: jieba's FREQ dict; logtotal: math.log(total); start: 4 floats, trans: 16 floats
 * (from-state major) in the state order B, E, M, S; emit: 4 dicts {character: float}. */
static PyObject *py_jieba_model(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    if (check_nargs("jieba_model", nargs, 5, 5) < 0) return NULL;
    PyObject *freq = args[0], *start = args[2], *trans = args[3], *emit = args[4];
    double logtotal = PyFloat_AsDouble(args[1]);
    if (logtotal == -1.0 && PyErr_Occurred()) return NULL;
    if (!PyDict_Check(freq) || !PyTuple_Check(start) || PyTuple_Size(start) != JIEBA_STATES || !PyTuple_Check(trans) ||
        PyTuple_Size(trans) != JIEBA_STATES * JIEBA_STATES || !PyTuple_Check(emit) || PyTuple_Size(emit) != JIEBA_STATES)
        return PyErr_Format(PyExc_TypeError, "jieba_model(dict, float, 4 floats, 16 floats, 4 dicts)");
    JiebaModel *m = jieba_new(PyDict_Size(freq));
    if (!m) return PyErr_NoMemory();
    int supported = 1, failed = 0;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    uint32_t *buf = NULL;
    isize cap = 0;
    while (supported && !failed && PyDict_Next(freq, &pos, &key, &value)) {
        if (!PyUnicode_Check(key) || !PyLong_Check(value)) {
            supported = 0;
            break;
        }
        int overflow = 0;
        long long f = PyLong_AsLongLongAndOverflow(value, &overflow);
        if (overflow || f < 0) {
            supported = 0;
            break;
        }
        Py_ssize_t len = PyUnicode_GetLength(key);
        if (!grow_buffer((void **)&buf, &cap, len + 1, sizeof(uint32_t))) {
            PyErr_NoMemory();
            failed = 1;
        } else if (!PyUnicode_AsUCS4(key, (Py_UCS4 *)buf, len + 1, 1)) {
            failed = 1;
        } else if (jieba_add(m, buf, len, f) < 0) {
            PyErr_NoMemory();
            failed = 1;
        }
    }
    free(buf);
    jieba_set_logtotal(m, logtotal);
    for (int a = 0; supported && !failed && a < JIEBA_STATES; a++) {
        double p = PyFloat_AsDouble(PyTuple_GetItem(start, a));
        if (p == -1.0 && PyErr_Occurred()) failed = 1;
        jieba_set_start(m, a, p);
        for (int b = 0; !failed && b < JIEBA_STATES; b++) {
            p = PyFloat_AsDouble(PyTuple_GetItem(trans, a * JIEBA_STATES + b));
            if (p == -1.0 && PyErr_Occurred()) failed = 1;
            jieba_set_trans(m, a, b, p);
        }
        PyObject *table = PyTuple_GetItem(emit, a);
        if (!PyDict_Check(table)) {
            supported = 0;
            break;
        }
        Py_ssize_t at = 0;
        while (!failed && PyDict_Next(table, &at, &key, &value)) {
            if (!PyUnicode_Check(key) || PyUnicode_GetLength(key) != 1) continue; /* never looked up */
            double p = PyFloat_AsDouble(value);
            Py_UCS4 ch = PyUnicode_ReadChar(key, 0);
            if ((p == -1.0 || ch == (Py_UCS4)-1) && PyErr_Occurred()) failed = 1;
            jieba_set_emit(m, a, ch, p);
        }
    }
    if (!failed && supported && jieba_finish(m) < 0) {
        PyErr_NoMemory();
        failed = 1;
    }
    if (failed || !supported) {
        jieba_free(m);
        if (failed) return NULL;
        Py_RETURN_NONE;
    }
    JiebaObject *self = PyObject_New(JiebaObject, JiebaType);
    if (!self) {
        jieba_free(m);
        return NULL;
    }
    self->model = m;
    return (PyObject *)self;
}

/* jieba_cut(model, text, words) -> list(jieba.cut(text)) when words, else the end offset of each word */
static PyObject *py_jieba_cut(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    int words;
    if (check_nargs("jieba_cut", nargs, 3, 3) < 0 || as_flag(args[2], &words) < 0) return NULL;
    if (!PyObject_TypeCheck(args[0], JiebaType)) return PyErr_Format(PyExc_TypeError, "a Jieba model is needed");
    if (!PyUnicode_Check(args[1])) return PyErr_Format(PyExc_TypeError, "jieba_cut needs a str");
    isize n;
    uint32_t *text = code_points(args[1], &n);
    if (!text) return NULL;
    isize *ends = xmalloc((size_t)(n + 1) * sizeof(isize));
    isize count = -1;
    if (ends && n > RELEASE_GIL_TOKENS) { /* the model is read only: other threads run meanwhile */
        Py_BEGIN_ALLOW_THREADS
        count = jieba_cut(((JiebaObject *)args[0])->model, text, n, ends);
        Py_END_ALLOW_THREADS
    } else if (ends) {
        count = jieba_cut(((JiebaObject *)args[0])->model, text, n, ends);
    }
    free(text);
    if (count < 0) {
        free(ends);
        return PyErr_NoMemory();
    }
    PyObject *out = PyList_New(count);
    for (isize k = 0, at = 0; out && k < count; k++) {
        PyObject *item = words ? PyUnicode_Substring(args[1], at, ends[k]) : PyLong_FromSsize_t(ends[k]);
        if (!item) Py_CLEAR(out);
        else PyList_SetItem(out, k, item);
        at = ends[k];
    }
    free(ends);
    return out;
}

static PyMethodDef module_methods[] = {
    {"tokens", FASTCALL(py_tokens), "tokens(terms: tuple[str], bounds) -> Tokens"},
    {"tokenize_text", FASTCALL(py_tokenize_text), "tokenize_text(text, word_rule) -> Tokens, or None"},
    {"tokens_mapped", FASTCALL(py_tokens_mapped), "tokens_mapped(tokens, mapping) -> Tokens of the mapped terms"},
    {"stem_map", FASTCALL(py_stem_map), "stem_map(keep, capacity) -> StemMap: keep(term) once per word type"},
    {"tokens_stemmed", FASTCALL(py_tokens_stemmed), "tokens_stemmed(tokens, stem_map) -> Tokens of the stems, or None"},
    {"text_document", FASTCALL(py_text_document), "text_document(cls, word_rule, lazy_args, key, text[, most_tokens, most_types]) -> cls, None, or (1 above most_tokens "
     "or 2 above most_types, the byte where it stopped)"},
    {"configure_lowering", (PyCFunction)py_configure_lowering, METH_O,
     "configure_lowering(ok): whether the compiled lowering table is this Python's"},
    {"layout_of", (PyCFunction)py_layout_of, METH_O, "layout_of(tokens) -> Layout of the document's sentences"},
    {"wlcs_alignment", FASTCALL(py_wlcs_alignment), "wlcs_alignment(ref, cand, w) -> (value, pairs)"},
    {"first_partners", FASTCALL(py_first_partners),
     "first_partners(ref_sentences, cand_sentences, cand_starts, w) -> list of dicts"},
    {"stats", FASTCALL(py_stats), "stats(plan, cand, ref) -> Stats of one method on one pair"},
    {"plans", (PyCFunction)py_plans, METH_O, "plans(tuple of (kernel, a, b, w, method, name, signature)) -> Plans"},
    {"ngram_evidence", FASTCALL(py_ngram_evidence), "ngram_evidence(cand, ref, n) -> NgramMatch records"},
    {"skip_evidence", FASTCALL(py_skip_evidence),
     "skip_evidence(cand, ref, distance, form, start) -> SkipBigramRow records"},
    {"lcs_evidence", FASTCALL(py_lcs_evidence), "lcs_evidence(cand, ref) -> (aligned (cand, ref) pairs, LCS terms)"},
    {"union_evidence", FASTCALL(py_union_evidence),
     "union_evidence(cand, ref) -> per reference sentence (alignments, union, counted)"},
    {"configure_record", FASTCALL(py_configure_record), "configure_record(kind, cls, fields)"},
    {"configure_scoring", FASTCALL(py_configure_scoring), "configure_scoring(only_reference, no_evidence)"},
    {"f_measure", FASTCALL(py_f_measure), "f_measure(precision, recall, alpha): rouge_core.stats.f_measure, compiled"},
    {"score_pair", FASTCALL(py_score_pair),
     "score_pair(plans, cand, refs, alpha, empty_nan, score_fn[, max_side[, combine]]) -> records, or None above "
     "max_side"},
    {"score_texts", FASTCALL(py_score_texts),
     "score_texts(cand_cls, ref_cls, word_rule, lazy_args, key, plans, cand, refs, alpha, empty_nan, score_fn, "
     "max_side[, combine]) -> (cand document, reference documents, records), None above max_side, NotImplemented"},
    {"reference_counts", FASTCALL(py_reference_counts),
     "reference_counts(references) -> (counts, most): each pair's reference count (0: no list or tuple), the largest"},
    {"batch_job", FASTCALL(py_batch_job),
     "batch_job(plans, cands, refs, word_rule, max_bytes, max_refs, alpha, empty_nan, block[, stem_map]) -> BatchJob"},
    {"batch_records", FASTCALL(py_batch_records),
     "batch_records(plans_for, values, offsets, counts, alpha, empty_nan, score_fn)"},
    {"random_draws", FASTCALL(py_random_draws),
     "random_draws(state, kind, n, count) -> bytes: random.Random's randrange(n) (kind 0) or random() >= 0.5 (1)"},
    {"resample_sums", FASTCALL(py_resample_sums),
     "resample_sums(values, size, n, rows, index, negate, centres, compensated) -> bytes of rows doubles"},
    {"jieba_model", FASTCALL(py_jieba_model),
     "jieba_model(freq, logtotal, start, trans, emit) -> Jieba (a copy of jieba's tables), or None"},
    {"jieba_cut", FASTCALL(py_jieba_cut), "jieba_cut(model, text, words) -> list(jieba.cut(text)), or the words' ends"},
    {"bootstrap_sums", FASTCALL(py_bootstrap_sums),
     "bootstrap_sums(state, n, rows, columns, empty_nan, threads) -> (sums, counts)"},
    END,
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "rouge_core._native",
    "Compiled kernels of rouge_core (see rouge_core.kernels.native); the same numbers as the pure path, bit for bit.", -1,
    module_methods,
};

/* SPEC: every constant spec.h defines, for rouge_core.kernels.native to compare with kernel_spec;
 * RECORD_FIELDS: the fields this build fills, per record kind. */
static int add_spec(PyObject *m) {
    PyObject *spec = PyDict_New(), *fields = PyTuple_New(RECORD_KINDS);
    int ok = spec && fields;
#define SPEC_SET(name, value)                                                             \
    if (ok) {                                                                             \
        PyObject *v_ = (value);                                                           \
        ok = v_ && PyDict_SetItemString(spec, name, v_) == 0;                             \
        Py_XDECREF(v_);                                                                   \
    }
#define SPEC_INT(name, value) SPEC_SET(name, PyLong_FromLong(value))
#define SPEC_FLOAT(name, value) SPEC_SET(name, PyFloat_FromDouble(value))
#define SPEC_STR(name, value) SPEC_SET(name, PyUnicode_FromString(value))
    SPEC_CONSTANTS(SPEC_INT, SPEC_FLOAT, SPEC_STR)
    for (int kind = 0; ok && kind < RECORD_KINDS; kind++) {
        int count = 0;
        while (RECORD_FIELD_NAMES[kind][count]) count++;
        PyObject *names = PyTuple_New(count);
        for (int k = 0; names && k < count; k++)
            tuple_put(&names, k, PyUnicode_FromString(RECORD_FIELD_NAMES[kind][k]));
        ok = names && PyTuple_SetItem(fields, kind, names) == 0;
    }
    ok = ok && PyModule_AddObjectRef(m, "SPEC", spec) == 0 && PyModule_AddObjectRef(m, "RECORD_FIELDS", fields) == 0;
    Py_XDECREF(spec);
    Py_XDECREF(fields);
    return ok ? 0 : -1;
}

/* LOWERINGS: (Unicode version, ((code point, lower case), ...)): the lowering table compiled in
 * (lowering.h), for rouge_core.kernels.native to compare with the running Python's. */
static int add_lowerings(PyObject *m) {
    PyObject *table = PyTuple_New(LOWERING_ENTRY_COUNT);
    for (int k = 0; table && k < LOWERING_ENTRY_COUNT; k++) {
        const Lowering *l = &LOWERING_ENTRIES[k];
        /* No '#' format: CPython 3.13's headers call the int-length variant whatever PY_SSIZE_T_CLEAN
         * says, so an abi3 module built by 3.13 would raise SystemError on 3.10-3.12 (cpython gh-104922). */
        PyObject *row = Py_BuildValue("(IN)", l->code, PyUnicode_FromStringAndSize(l->ascii, l->ascii_len));
        tuple_put(&table, k, row);
    }
    PyObject *both = table ? Py_BuildValue("(sN)", LOWERING_VERSION, table) : NULL;
    int rc = both ? PyModule_AddObjectRef(m, "LOWERINGS", both) : -1;
    Py_XDECREF(both);
    return rc;
}

static PyTypeObject *add_type(PyObject *m, PyType_Spec *spec, const char *name) {
    PyObject *type = PyType_FromSpec(spec);
    if (!type || (name && PyModule_AddObjectRef(m, name, type) < 0)) {
        Py_XDECREF(type);
        return NULL;
    }
    return (PyTypeObject *)type; /* the module state keeps this reference */
}

PyMODINIT_FUNC PyInit__native(void) {
    PyObject *m = PyModule_Create(&module_def);
    if (!m) return NULL;
#ifdef Py_GIL_DISABLED
    PyUnstable_Module_SetGIL(m, Py_MOD_GIL_NOT_USED);
#endif
    object_new = (newfunc)PyType_GetSlot(&PyBaseObject_Type, Py_tp_new);
    EMPTY_TUPLE = PyTuple_New(0);
    FLOAT_ONE = PyFloat_FromDouble(1.0);
    if (!object_new || !EMPTY_TUPLE || !FLOAT_ONE || !(TokensType = add_type(m, &Tokens_spec, "Tokens")) ||
        !(LayoutType = add_type(m, &Layout_spec, "Layout")) || !(PlansType = add_type(m, &Plans_spec, "Plans")) ||
        !(BatchJobType = add_type(m, &BatchJob_spec, "BatchJob")) ||
        !(StemMapType = add_type(m, &StemMap_spec, "StemMap")) || !(JiebaType = add_type(m, &Jieba_spec, "Jieba")) || add_spec(m) < 0 || add_lowerings(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
