"""Users in Django admin, bots marked."""

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import User


@admin.register(User)
class BakehouseUserAdmin(UserAdmin):
    """The stock user admin plus the bot flag."""

    list_display = ("username", "email", "is_bot", "is_staff", "is_active", "date_joined")
    list_filter = ("is_bot", "is_staff", "is_active")
    fieldsets = (*(UserAdmin.fieldsets or ()), ("Bakehouse", {"fields": ("is_bot",)}))
