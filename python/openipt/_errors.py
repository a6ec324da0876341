# SPDX-License-Identifier: Apache-2.0
"""openipt.Error and one subclass per ipt_status, named from ipt_status_name."""

from . import _ipt


class Error(Exception):
    """An OpenIPT call failed; the message is the library's (ipt_last_error)."""

    status = None  # ipt_status value
    status_name = None  # "IPT_ERR_..."


# Python base classes beside Error, so that generic handlers catch them too.
_ALSO = {"IPT_ERR_INVALID_ARGUMENT": (ValueError,), "IPT_ERR_OUT_OF_MEMORY": (MemoryError,),
         "IPT_ERR_NOT_FOUND": (LookupError,)}


def _class_name(status_name):
    words = status_name.removeprefix("IPT_ERR_").lower().split("_")
    return "".join(w.capitalize() for w in words) + "Error"


CLASSES = {}
for _status, _name in _ipt.status_names().items():
    CLASSES[_status] = type(_class_name(_name), (Error,) + _ALSO.get(_name, ()),
                            {"status": _status, "status_name": _name, "__module__": "openipt",
                             "__doc__": f"{_name}: the call's status; the message says why."})
_ipt.set_error_classes(CLASSES)


def raise_error(status, message):
    raise CLASSES.get(status, Error)(message)
